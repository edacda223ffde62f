//! A lenient walk of an X.509 certificate's DER, enough for what `validateTrustBundle` asks
//! of `x509.ParseCertificate`: whether the bytes have a certificate's outer shape
//! (`Certificate`, `TBSCertificate` with its fields in order, the extensions), and its
//! basic constraints (`BasicConstraintsValid`, `IsCA`). Go's parser checks much more (the
//! names, times, keys and algorithms themselves): a certificate malformed only there passes
//! here.

/// One DER element: its tag, its content, and what follows it.
pub(crate) fn element(data: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = data.split_first()?;
    if tag & 0x1f == 0x1f {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n].iter().fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

/// An element of the given tag.
pub(crate) fn expect(data: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (t, content, rest) = element(data)?;
    (t == tag).then_some((content, rest))
}

/// The basic constraints of a certificate: `Some((BasicConstraintsValid, IsCA))`, or `None`
/// when the bytes are not shaped as a certificate.
pub(crate) fn basic_constraints(der: &[u8]) -> Option<(bool, bool)> {
    let (cert, trailing) = expect(der, 0x30)?;
    if !trailing.is_empty() {
        return None;
    }
    let (tbs, rest) = expect(cert, 0x30)?;
    let (_, rest) = expect(rest, 0x30)?; // signatureAlgorithm
    let (_, rest) = expect(rest, 0x03)?; // signatureValue
    if !rest.is_empty() {
        return None;
    }
    let mut rest = tbs;
    if let Some((_, after)) = expect(rest, 0xa0) {
        rest = after; // version
    }
    let (_, r) = expect(rest, 0x02)?; // serialNumber
    let (_, r) = expect(r, 0x30)?; // signature
    let (_, r) = expect(r, 0x30)?; // issuer
    let (_, r) = expect(r, 0x30)?; // validity
    let (_, r) = expect(r, 0x30)?; // subject
    let (_, mut r) = expect(r, 0x30)?; // subjectPublicKeyInfo
    let mut result = (false, false);
    while !r.is_empty() {
        let (tag, content, after) = element(r)?;
        r = after;
        if tag != 0xa3 {
            continue; // issuerUniqueID, subjectUniqueID
        }
        let (mut exts, trailing) = expect(content, 0x30)?;
        if !trailing.is_empty() {
            return None;
        }
        while !exts.is_empty() {
            let (ext, after) = expect(exts, 0x30)?;
            exts = after;
            let (oid, mut e) = expect(ext, 0x06)?;
            if let Some((_, after)) = expect(e, 0x01) {
                e = after; // critical
            }
            let (value, _) = expect(e, 0x04)?;
            if oid == [0x55, 0x1d, 0x13] {
                let (bc, _) = expect(value, 0x30)?;
                let is_ca = expect(bc, 0x01).is_some_and(|(b, _)| b.first().is_some_and(|v| *v != 0));
                result = (true, is_ca);
            }
        }
    }
    Some(result)
}
