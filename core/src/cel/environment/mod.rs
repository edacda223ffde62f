//! Kubernetes' CEL environment (apiserver `pkg/cel/environment`, `pkg/cel/common`): which
//! libraries an expression may use at each compatibility version, the check as Kubernetes
//! compiles an expression ([`check_kubernetes`]: the checker, told what the version lacks,
//! then cel-go's AST validators), the program as it builds it ([`instantiate`]), and the
//! types and values of OpenAPI schemas ([`schema`]) that `self` and the other variables have.
//!
//! ## Versions
//!
//! Each library of the base environment (apiserver `pkg/cel/environment/base.go`, read at
//! 24a394e5 for 1.37) has the version that introduced it. An API server
//! compiles an expression that is new in the object written (a CRD's rule, a policy's
//! expression) in its *NewExpressions* environment: the libraries introduced at or before its
//! minimum compatibility version, one minor below its own (component-base
//! `compatibility/version.go` `SetEmulationVersion`; apiextensions `validation.go` and
//! admissionregistration's validation choose the environment per expression). Expressions
//! already stored use the *StoredExpressions* environment, everything the binary has. So a
//! library reaches new expressions one release after the API server learnt it: on 1.37,
//! `includes` (Kubernetes lists library version 1) is in neither a new CRD rule nor a new policy.
//!
//! kubedv compiles a document as the API server compiles it when it is created, so the
//! compatibility version of a run against Kubernetes 1.N is 1.(N-1) ([`new_expressions`]).
//! The libraries introduced since 1.30 are modeled; older ones (quantity, sets, optional
//! types, ...) are in every environment, so a `kubedv check --k8s-version` older than 1.31
//! (kubedv's CEL releases are 1.33 to 1.37) still accepts them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub mod schema;
mod validate;
mod versions;

pub use versions::{new_expressions, ALL};

use crate::cel::check::{check_collecting, report, CelType, Decls};
use crate::cel::common::CelError;
use crate::cel::runtime::Program;
use crate::cel::syntax::ast::Checked;

/// Type-checks as Kubernetes' environment does (apiserver pkg/cel/environment/base.go, since
/// 1.29): the check, then cel-go's AST validators — list and map literals must be
/// homogeneous (`expected type 'int' but found 'string'`, cel/validator.go) and literal
/// arguments of `duration`, `timestamp` and `matches` must be valid (`invalid duration
/// argument`). Run it on the program before constant folding, as cel-go does.
pub fn check_kubernetes(program: &Program, decls: &Decls) -> Result<CelType, CelError> {
    check_kubernetes_overloads(program, decls).map(|(t, _)| t)
}

/// [`check_kubernetes`], with the overloads to build the program with
/// ([`Program::compile_checked`]).
pub fn check_kubernetes_overloads(program: &Program, decls: &Decls) -> Result<(CelType, Checked), CelError> {
    // cel-go runs its validators only on an expression that checked.
    let checked = check_collecting(program, decls, versions::undeclared)?;
    let mut issues: Vec<(u32, String)> = Vec::new();
    for items in &checked.lists {
        let mut items = items.iter();
        let Some((_, first)) = items.next() else { continue };
        if let Some((offset, other)) = items.find(|(_, t)| t != first) {
            issues.push((*offset, mismatch(first, other)));
        }
    }
    for entries in &checked.maps {
        let mut entries = entries.iter();
        let Some((_, k0, _, v0)) = entries.next() else { continue };
        for (ko, kt, vo, vt) in entries {
            if kt != k0 {
                issues.push((*ko, mismatch(k0, kt)));
            }
            if vt != v0 {
                issues.push((*vo, mismatch(v0, vt)));
            }
        }
    }
    validate::literal_arguments(program.ast(), &mut issues);
    validate::format_calls(program.ast(), &checked.exempt, &mut issues);
    // cel-go reports every validator's issues, sorted by position.
    report(program.source(), issues)?;
    Ok((checked.t, Checked { overloads: checked.overloads }))
}

/// Builds a checked program (`unoptimized`, from `src`) as cel-go's `env.Program` does in
/// Kubernetes' environment, or gives what it refuses, which Kubernetes prints after "program
/// instantiation failed: ": an invalid literal pattern the regex library compiles then
/// (`validate::instantiation_error`), or a constant conversion that fails when
/// `OptOptimize` folds it (cel-go v0.29.2 interpreter/decorators.go maybeOptimizeConstUnary:
/// `int('x')`).
pub fn instantiate(unoptimized: &Program, src: &str, checked: &Checked) -> Result<Program, String> {
    if let Some(m) = validate::instantiation_error(unoptimized.ast()) {
        return Err(m);
    }
    Program::compile_checked(src, checked).map_err(|e| e.message)
}

fn mismatch(expected: &CelType, actual: &CelType) -> String {
    use crate::cel::check::go_name;
    format!("expected type '{}' but found '{}'", go_name(expected), go_name(actual))
}
