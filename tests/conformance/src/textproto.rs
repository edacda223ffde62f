//! A small reader for protobuf text format: enough for the conformance files (messages, scalars,
//! quoted strings with C escapes, `[extension]` field names), without protoc or descriptors.

/// A field's value.
#[derive(Debug, Clone)]
pub enum Field {
    /// A number, enum name or identifier, as written.
    Scalar(String),
    /// A quoted string, unescaped (bytes, since protobuf strings may hold any byte).
    Str(Vec<u8>),
    /// A nested message.
    Message(Message),
}

/// A message: its fields in order (repeated fields appear repeatedly).
#[derive(Debug, Clone, Default)]
pub struct Message {
    pub fields: Vec<(String, Field)>,
}

impl Message {
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, f)| f)
    }

    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Field> + 'a {
        self.fields.iter().filter(move |(n, _)| n == name).map(|(_, f)| f)
    }

    pub fn message(&self, name: &str) -> Option<&Message> {
        match self.get(name) {
            Some(Field::Message(m)) => Some(m),
            _ => None,
        }
    }

    pub fn messages<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Message> + 'a {
        self.all(name).filter_map(|f| match f {
            Field::Message(m) => Some(m),
            _ => None,
        })
    }

    pub fn string(&self, name: &str) -> Option<String> {
        match self.get(name) {
            Some(Field::Str(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            Some(Field::Scalar(s)) => Some(s.clone()),
            _ => None,
        }
    }

    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Field::Scalar(s)) if s == "true" || s == "1")
    }
}

pub fn parse(src: &str) -> Result<Message, String> {
    let mut p = Parser { b: src.as_bytes(), at: 0 };
    let m = p.message(None)?;
    Ok(m)
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.at < self.b.len() {
            match self.b[self.at] {
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b';' => self.at += 1,
                b'#' => {
                    while self.at < self.b.len() && self.b[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn err<T>(&self, msg: &str) -> Result<T, String> {
        let line = self.b[..self.at].iter().filter(|&&c| c == b'\n').count() + 1;
        Err(format!("line {line}: {msg}"))
    }

    fn message(&mut self, close: Option<u8>) -> Result<Message, String> {
        let mut m = Message::default();
        loop {
            self.skip();
            if self.at >= self.b.len() {
                return match close {
                    None => Ok(m),
                    Some(_) => self.err("unexpected end of input"),
                };
            }
            if Some(self.b[self.at]) == close {
                self.at += 1;
                return Ok(m);
            }
            let name = self.name()?;
            self.skip();
            let mut colon = false;
            if self.b.get(self.at) == Some(&b':') {
                self.at += 1;
                colon = true;
                self.skip();
            }
            match self.b.get(self.at) {
                Some(b'{') | Some(b'<') => {
                    let close = if self.b[self.at] == b'{' { b'}' } else { b'>' };
                    self.at += 1;
                    let inner = self.message(Some(close))?;
                    m.fields.push((name, Field::Message(inner)));
                }
                Some(b'[') if colon => {
                    self.at += 1;
                    loop {
                        self.skip();
                        if self.b.get(self.at) == Some(&b']') {
                            self.at += 1;
                            break;
                        }
                        let v = self.value()?;
                        m.fields.push((name.clone(), v));
                    }
                }
                _ => {
                    let v = self.value()?;
                    m.fields.push((name, v));
                }
            }
        }
    }

    fn name(&mut self) -> Result<String, String> {
        if self.b[self.at] == b'[' {
            let start = self.at;
            while self.at < self.b.len() && self.b[self.at] != b']' {
                self.at += 1;
            }
            self.at += 1;
            return Ok(String::from_utf8_lossy(&self.b[start..self.at]).into_owned());
        }
        let start = self.at;
        while self.at < self.b.len() && (self.b[self.at].is_ascii_alphanumeric() || self.b[self.at] == b'_') {
            self.at += 1;
        }
        if start == self.at {
            return self.err("expected a field name");
        }
        Ok(String::from_utf8_lossy(&self.b[start..self.at]).into_owned())
    }

    fn value(&mut self) -> Result<Field, String> {
        match self.b.get(self.at) {
            Some(b'"') | Some(b'\'') => {
                let mut out = Vec::new();
                // Adjacent string literals concatenate.
                while matches!(self.b.get(self.at), Some(b'"') | Some(b'\'')) {
                    self.string(&mut out)?;
                    let save = self.at;
                    self.skip_ws_only();
                    if !matches!(self.b.get(self.at), Some(b'"') | Some(b'\'')) {
                        self.at = save;
                    }
                }
                Ok(Field::Str(out))
            }
            Some(b'{') => {
                self.at += 1;
                Ok(Field::Message(self.message(Some(b'}'))?))
            }
            _ => {
                let start = self.at;
                while self.at < self.b.len()
                    && (self.b[self.at].is_ascii_alphanumeric() || matches!(self.b[self.at], b'_' | b'-' | b'+' | b'.'))
                {
                    self.at += 1;
                }
                if start == self.at {
                    return self.err("expected a value");
                }
                Ok(Field::Scalar(String::from_utf8_lossy(&self.b[start..self.at]).into_owned()))
            }
        }
    }

    fn skip_ws_only(&mut self) {
        while self.at < self.b.len() && matches!(self.b[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    fn string(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        let q = self.b[self.at];
        self.at += 1;
        loop {
            let Some(&c) = self.b.get(self.at) else { return self.err("unterminated string") };
            self.at += 1;
            if c == q {
                return Ok(());
            }
            if c != b'\\' {
                out.push(c);
                continue;
            }
            let Some(&e) = self.b.get(self.at) else { return self.err("bad escape") };
            self.at += 1;
            match e {
                b'a' => out.push(7),
                b'b' => out.push(8),
                b'f' => out.push(12),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'v' => out.push(11),
                b'\\' | b'\'' | b'"' | b'?' => out.push(e),
                b'x' | b'X' => {
                    let mut v = 0u32;
                    let mut n = 0;
                    while n < 2 && self.b.get(self.at).is_some_and(u8::is_ascii_hexdigit) {
                        v = v * 16 + (self.b[self.at] as char).to_digit(16).unwrap_or(0);
                        self.at += 1;
                        n += 1;
                    }
                    out.push(v as u8);
                }
                b'0'..=b'7' => {
                    let mut v = u32::from(e - b'0');
                    let mut n = 1;
                    while n < 3 && matches!(self.b.get(self.at), Some(b'0'..=b'7')) {
                        v = v * 8 + u32::from(self.b[self.at] - b'0');
                        self.at += 1;
                        n += 1;
                    }
                    out.push(v as u8);
                }
                b'u' | b'U' => {
                    let len = if e == b'u' { 4 } else { 8 };
                    let hex = std::str::from_utf8(&self.b[self.at..self.at + len]).unwrap_or("0");
                    let v = u32::from_str_radix(hex, 16).unwrap_or(0xFFFD);
                    self.at += len;
                    let ch = char::from_u32(v).unwrap_or('\u{FFFD}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                other => {
                    out.push(b'\\');
                    out.push(other);
                }
            }
        }
    }
}
