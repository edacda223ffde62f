use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::messages::regex_error;

const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";
const C_IDENTIFIER_ERR: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";

/// `content.IsCIdentifier`: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_c_identifier(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let valid = match b.first() {
        Some(&first) => {
            (first.is_ascii_alphabetic() || first == b'_') && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
        }
        None => false,
    };
    if valid {
        Vec::new()
    } else {
        vec![regex_error(C_IDENTIFIER_ERR, C_IDENTIFIER_FMT, &["my_name", "MY_NAME", "MyName"])]
    }
}
