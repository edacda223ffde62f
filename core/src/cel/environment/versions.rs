//! The libraries of Kubernetes' base environment by the version that introduced them, and
//! the checker's errors where an expression uses one its compatibility version lacks.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::cel::check::ALL;
use crate::cel::syntax::ast::{Expr, Kind};
use crate::cel::syntax::Builtin;

/// The compatibility version (1.N) of the environment a new expression is compiled in by an
/// API server of Kubernetes 1.`server`.
pub const fn new_expressions(server: u32) -> u32 {
    server.saturating_sub(1)
}

/// The minor release whose `base.go` entry introduced the library of a call, for libraries
/// introduced since 1.30 (`u32::MAX` for cel-go's ext.Math and ext.Encoders, which Kubernetes
/// never enables).
fn introduced(builtin: Builtin, name: &str) -> Option<u32> {
    use Builtin as B;
    Some(match builtin {
        // library.IP, library.CIDR (ip.go, cidr.go).
        B::Ip | B::IsIp | B::IpIsCanonical | B::Cidr | B::IsCidr => 30,
        // library.Format (format.go).
        B::FormatNamed | B::FormatByName => 31,
        // library.SemverLib version 1 (semverlib.go).
        B::Semver | B::IsSemver => 33,
        // cel-go ext.Lists version 3 (ext/lists.go; `sortBy` is its macro).
        B::ListsRange | B::Distinct | B::Flatten | B::Slice | B::Sort | B::SortByKeys | B::Reverse => 34,
        // library.Lists version 1 (lists.go).
        B::Includes => 37,
        // The methods of these libraries' types that nothing older declares (authz.go's
        // AuthzSelectors came in 1.31).
        B::ObjectMethod => match name {
            "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast"
            | "containsIP"
            | "containsCIDR"
            | "prefixLength"
            | "masked" => 30,
            "validate" | "fieldSelector" | "labelSelector" => 31,
            "major" | "minor" | "patch" => 33,
            _ => return None,
        },
        _ if name.starts_with("math.") || name.starts_with("base64.") => u32::MAX,
        _ => return None,
    })
}

/// Records cel-go's checker errors where the node `e` uses a function the environment at
/// `compatibility` lacks, and says whether it does. Kubernetes never enables cel-go's ext.Math,
/// ext.Encoders or ext.Bindings (`math.greatest`, `base64.encode`, `cel.bind` are undeclared at
/// every version). A namespaced function is a member call there (checker.go `checkCall`): its
/// namespace is an undeclared identifier at its start, then the function undeclared at the
/// call's `(`. The arguments are checked as usual: where a macro is absent (`cel.bind`, the
/// two-variable macros, `sortBy`), its variables are identifiers that name nothing, reported
/// where they are written and where they are used (the checker's `unchecked`).
pub(super) fn undeclared(e: &Expr, src: &str, compatibility: u32, errors: &mut Vec<(u32, String)>) -> bool {
    let absent = |introduced: u32| introduced > compatibility;
    let mut report =
        |at: u32, name: &str| errors.push((at, format!("undeclared reference to '{name}' (in container '')")));
    match &e.kind {
        // `cel.bind` and `cel.block` (parser-made binds are not the user's).
        Kind::Bind { written: true, .. } => {
            report(e.offset.saturating_sub(8), "cel");
            report(e.offset, "bind");
        }
        Kind::Block { .. } => {
            report(e.offset.saturating_sub(9), "cel");
            report(e.offset, "block");
        }
        Kind::Call { target, name, builtin, .. } => {
            let Some(introduced) = introduced(*builtin, name) else { return false };
            if introduced != u32::MAX && !absent(introduced) {
                return false;
            }
            match name.split_once('.').filter(|_| target.is_none()) {
                Some((ns, function)) => {
                    report(e.offset.saturating_sub(name.len() as u32), ns);
                    report(e.offset, function);
                }
                None if *builtin == Builtin::SortByKeys => report(e.offset, "sortBy"),
                None => report(e.offset, name),
            }
        }
        // cel-go ext.TwoVarComprehensions (1.32). Without it a two-variable macro is a call of
        // an undeclared function (`all`, `exists`, `existsOne` or `exists_one`,
        // `transformList`, ...): the name written before the `(` where the comprehension sits.
        Kind::Comprehension(c) if c.var2.is_some() && absent(32) => {
            let before = src.get(..e.offset as usize).unwrap_or("");
            let start = before.bytes().rposition(|b| !(b.is_ascii_alphanumeric() || b == b'_')).map_or(0, |i| i + 1);
            report(e.offset, &before[start..]);
        }
        _ => return false,
    }
    true
}
