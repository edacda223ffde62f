use alloc::format;
use alloc::string::String;

/// `content.MaxLenError`: `must be no more than N bytes`.
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} bytes")
}

/// `content.EmptyError`.
pub fn empty_error() -> &'static str {
    "must be non-empty"
}

/// `content.RegexError`: the message, examples and the regex Kubernetes validates with.
pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut out = String::from(msg);
    out.push_str(" (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push('\'');
        out.push_str(example);
        out.push_str("', ");
    }
    out.push_str("regex used for validation is '");
    out.push_str(re);
    out.push_str("')");
    out
}
