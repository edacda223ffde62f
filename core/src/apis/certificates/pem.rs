//! Go's `encoding/pem` `Decode` (Go 1.25), and the `base64.StdEncoding` it decodes a block's
//! body with.

use alloc::string::String;
use alloc::vec::Vec;

/// A PEM block (`pem.Block`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// The type, from the `-----BEGIN TYPE-----` line.
    pub ty: String,
    /// The headers (`Key: Value` lines), in order.
    pub headers: Vec<(String, String)>,
    /// The decoded body.
    pub bytes: Vec<u8>,
}

const PEM_START: &[u8] = b"\n-----BEGIN ";
const PEM_END: &[u8] = b"\n-----END ";
const PEM_END_OF_LINE: &[u8] = b"-----";

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn trim_right_space_tab(mut s: &[u8]) -> &[u8] {
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

fn trim_space(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &s[start..end.max(start)]
}

/// `getLine`: the first line (without trailing spaces, tabs and the line break), the rest,
/// and how many bytes were consumed.
fn get_line(data: &[u8]) -> (&[u8], &[u8], usize) {
    let (i, j) = match data.iter().position(|&b| b == b'\n') {
        None => (data.len(), data.len()),
        Some(i) => (if i > 0 && data[i - 1] == b'\r' { i - 1 } else { i }, i + 1),
    };
    (trim_right_space_tab(&data[..i]), &data[j..], j)
}

/// `pem.Decode`: the first block and the rest, or `None` (the rest being all of `data`).
pub(crate) fn decode(data: &[u8]) -> (Option<Block>, &[u8]) {
    let mut rest: &[u8] = data;
    let mut end_trailer_index: isize = 0;
    loop {
        if end_trailer_index < 0 || end_trailer_index as usize > rest.len() {
            return (None, data);
        }
        rest = &rest[end_trailer_index as usize..];
        let Some(end) = find(rest, PEM_END) else { return (None, data) };
        let mut end_index = end as isize;
        end_trailer_index = end_index + PEM_END.len() as isize;
        let begin = rfind(&rest[..end], &PEM_START[1..]);
        let Some(begin) = begin.filter(|&b| b == 0 || rest[b - 1] == b'\n') else { continue };
        let skip = (begin + PEM_START.len() - 1) as isize;
        rest = &rest[skip as usize..];
        end_index -= skip;
        end_trailer_index -= skip;
        let (type_line, after, consumed) = get_line(rest);
        rest = after;
        end_index -= consumed as isize;
        end_trailer_index -= consumed as isize;
        let Some(ty) = type_line.strip_suffix(PEM_END_OF_LINE) else { continue };
        let mut headers: Vec<(String, String)> = Vec::new();
        loop {
            if rest.is_empty() {
                return (None, data);
            }
            let (line, next, consumed) = get_line(rest);
            let Some(colon) = line.iter().position(|&b| b == b':') else { break };
            let key = String::from_utf8_lossy(trim_space(&line[..colon])).into_owned();
            let val = String::from_utf8_lossy(trim_space(&line[colon + 1..])).into_owned();
            match headers.iter_mut().find(|(k, _)| *k == key) {
                Some(h) => h.1 = val,
                None => headers.push((key, val)),
            }
            rest = next;
            end_index -= consumed as isize;
            end_trailer_index -= consumed as isize;
        }
        if !headers.is_empty() && end_index < 0 {
            continue;
        }
        if end_trailer_index < 0 || end_trailer_index as usize > rest.len() {
            continue;
        }
        let end_trailer = &rest[end_trailer_index as usize..];
        let trailer_len = ty.len() + PEM_END_OF_LINE.len();
        if end_trailer.len() < trailer_len {
            continue;
        }
        let (trailer, rest_of_end_line) = end_trailer.split_at(trailer_len);
        if !trailer.starts_with(ty) || !trailer.ends_with(PEM_END_OF_LINE) {
            continue;
        }
        if !get_line(rest_of_end_line).0.is_empty() {
            continue;
        }
        let mut bytes = Vec::new();
        if end_index > 0 {
            let body: Vec<u8> =
                rest[..end_index as usize].iter().copied().filter(|b| *b != b' ' && *b != b'\t').collect();
            match std_decode(&body) {
                Some(b) => bytes = b,
                None => continue,
            }
        }
        let from = end_index + PEM_END.len() as isize - 1;
        let tail = if from < 0 { rest } else { &rest[(from as usize).min(rest.len())..] };
        let (_, tail, _) = get_line(tail);
        let block = Block { ty: String::from_utf8_lossy(ty).into_owned(), headers, bytes };
        return (Some(block), tail);
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `base64.StdEncoding.Decode`: padded standard base64; line breaks (`\r`, `\n`) are ignored.
pub(crate) fn std_decode(data: &[u8]) -> Option<Vec<u8>> {
    let chars: Vec<u8> = data.iter().copied().filter(|b| *b != b'\r' && *b != b'\n').collect();
    if chars.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(chars.len() / 4 * 3);
    let quanta = chars.len() / 4;
    for (q, quantum) in chars.chunks(4).enumerate() {
        let pad = quantum.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && q + 1 != quanta) {
            return None;
        }
        let mut acc: u32 = 0;
        for &c in &quantum[..4 - pad] {
            let v = B64.iter().position(|&b| b == c)?;
            acc = (acc << 6) | v as u32;
        }
        acc <<= 6 * pad as u32;
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// Go's standard base64 encoding (how `json.Marshal` prints a `[]byte`).
pub(crate) fn std_encode(b: &[u8]) -> String {
    crate::cel::value::base64_encode(b)
}
