//! Diagnostics: input that cannot be understood (bad Go, bad tags, bad JSON/YAML, objects that
//! do not decode into the declared types). They are not validation errors: each says where the
//! problem is and what to do about it.

use alloc::string::String;
use core::fmt;

use serde::Serialize;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input cannot be used as is.
    Error,
    /// Suspicious, or not fully evaluated, but usable.
    Warning,
}

/// A 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Pos {
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
}

/// A problem with the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// 1-based line in the source (0 when the position is a field path instead).
    pub line: u32,
    /// 1-based column (0 when the position is a field path instead).
    pub column: u32,
    /// The field path in an object, for problems found while decoding it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The source the line and column are in, when it is not the main input (another package's
    /// file that an import resolved to).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// What is wrong and what to do about it.
    pub message: String,
}

impl Diagnostic {
    /// An error at a source position.
    pub fn error(pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            line: pos.line,
            column: pos.column,
            field: None,
            file: None,
            message: message.into(),
        }
    }

    /// A warning at a source position.
    pub fn warning(pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            line: pos.line,
            column: pos.column,
            field: None,
            file: None,
            message: message.into(),
        }
    }

    /// An error at a field of an object.
    pub fn at_field(field: String, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            line: 0,
            column: 0,
            field: Some(field),
            file: None,
            message: message.into(),
        }
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match (&self.field, &self.file) {
            (Some(field), _) => write!(f, "{field}: {sev}: {}", self.message),
            (None, Some(file)) => write!(f, "{file}:{}:{}: {sev}: {}", self.line, self.column, self.message),
            (None, None) => write!(f, "{}:{}: {sev}: {}", self.line, self.column, self.message),
        }
    }
}
