//! The type checker (cel-go's `checker`): CEL's types ([`CelType`]), the declared overloads of
//! every function kubedv knows (its signatures), the declarations a program is checked
//! against ([`Decls`]), and the checker, which an environment may tell that some functions are
//! undeclared in it (`cel::environment` does, for Kubernetes' versions).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

mod checker;
mod signatures;
mod types;

pub use checker::{check, check_result};
pub(crate) use checker::{check_collecting, report};
pub(crate) use types::go_name;
pub use types::{CelType, ObjectType};

use crate::cel::syntax::ast::Expr;

/// Every library kubedv has: the StoredExpressions environment of the newest version (the
/// compatibility version declarations have by default).
pub const ALL: u32 = u32::MAX;

/// Whether an environment lacks the function of a node: records the checker's errors for it
/// (`(offset, message)`) and answers true, given the source and the compatibility version.
pub(crate) type Undeclared = fn(&Expr, &str, u32, &mut Vec<(u32, String)>) -> bool;

/// Declared variables and extra functions.
#[derive(Clone, Debug)]
pub struct Decls {
    vars: BTreeMap<String, CelType>,
    functions: BTreeMap<String, Vec<Overload>>,
    /// The mutation types `Object...` and `JSONPatch` and `jsonpatch.escapeKey` (mutating
    /// admission policies' mutations).
    patch_types: bool,
    /// The compatibility version (1.N) of the Kubernetes environment: the libraries introduced
    /// after it are undeclared (`cel::environment`; every library by default).
    compatibility: u32,
}

/// A declared function overload; `Param` types are its type parameters.
#[derive(Clone, Debug)]
pub struct Overload {
    /// Receiver-style (the first parameter is the receiver).
    pub member: bool,
    /// Parameter types.
    pub params: Vec<CelType>,
    /// Result type.
    pub result: CelType,
}

impl Default for Decls {
    fn default() -> Decls {
        Decls { vars: BTreeMap::new(), functions: BTreeMap::new(), patch_types: false, compatibility: ALL }
    }
}

impl Decls {
    /// Checks in Kubernetes' environment at compatibility version 1.`minor`
    /// ([`new_expressions`](crate::cel::environment::new_expressions) gives a server's for new
    /// expressions).
    pub fn set_compatibility(&mut self, minor: u32) {
        self.compatibility = minor;
    }

    /// Declarations from (name, type) pairs.
    pub fn from_pairs(pairs: Vec<(String, CelType)>) -> Decls {
        // Inserted one by one: collecting into a map would instantiate another sort.
        let mut decls = Decls::default();
        for (name, t) in pairs {
            decls.vars.insert(name, t);
        }
        decls
    }

    /// Declares a variable.
    pub fn declare(&mut self, name: &str, t: CelType) {
        self.vars.insert(String::from(name), t);
    }

    /// Declares the mutation types (`Object{...}`, `JSONPatch{...}`) and `jsonpatch.escapeKey`.
    pub fn enable_patch_types(&mut self) {
        self.patch_types = true;
    }

    /// Declares a function overload.
    pub fn declare_function(&mut self, name: &str, overload: Overload) {
        self.functions.entry(String::from(name)).or_default().push(overload);
    }
}
