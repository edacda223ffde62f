//! The Kubernetes releases kubedv models, and how a user names one (`1.37`, `v1.37`).
//!
//! Every engine reads the release from here: the declarative rules and their enforcement
//! (1.33 onwards, [`crate::declarative::shadow`]), the API lifecycle tables (1.16 onwards,
//! [`crate::lifecycle`]), CRD and policy rules, and the built-in kinds' API server path.

use alloc::format;
use alloc::string::String;

/// The newest release modeled, and every engine's default.
pub const NEWEST_MINOR: u32 = 37;

/// The oldest release with declarative validation (its rules and enforcement are modeled from
/// here).
pub const OLDEST_DECLARATIVE_MINOR: u32 = 33;

/// The oldest release the API lifecycle tables speak for (`kubedv check --k8s-version`).
pub const OLDEST_LIFECYCLE_MINOR: u32 = 16;

/// The minor N of a release written `1.N` or `v1.N` (any N: the callers say which they model).
pub fn minor(version: &str) -> Option<u32> {
    version.trim().trim_start_matches('v').strip_prefix("1.").and_then(|m| m.parse::<u32>().ok())
}

/// The minor of a release written `1.N` or `v1.N` between 1.`oldest` and the newest.
pub fn parse(version: &str, oldest: u32) -> Result<u32, String> {
    match minor(version) {
        Some(m) if (oldest..=NEWEST_MINOR).contains(&m) => Ok(m),
        _ => Err(format!("{version}: expected 1.{oldest} to 1.{NEWEST_MINOR}")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_releases() {
        assert_eq!(super::parse("1.37", 16), Ok(37));
        assert_eq!(super::parse("v1.20", 16), Ok(20));
        assert_eq!(super::parse("1.15", 16), Err(alloc::string::String::from("1.15: expected 1.16 to 1.37")));
        assert!(super::parse("2.0", 16).is_err());
        assert_eq!(super::NEWEST_MINOR, crate::declarative::shadow::VERSIONS.last().map_or(0, |v| v.minor));
    }
}
