//! The compiled form of a `types.go`: a graph of types with their validators.

use alloc::string::String;
use alloc::vec::Vec;

use super::compile::Dependency;
use super::validators::{Check, Validator};
use crate::diag::{Diagnostic, Pos};
use crate::field::Stability;

/// An index into a [`Schema`]'s types.
pub type TypeId = usize;

/// What a type is, after resolving names.
#[derive(Debug)]
pub(crate) enum Kind {
    String,
    Bool,
    /// A Go integer type and its range.
    Int {
        min: i128,
        max: i128,
    },
    Float,
    /// `[]byte` (JSON: a base64 string).
    Bytes,
    Pointer(TypeId),
    Slice(TypeId),
    Map(TypeId, TypeId),
    Struct(Vec<Field>),
    /// Anything: interfaces, external types kubedv does not model, `+k8s:opaqueType` fields.
    Opaque,
    /// `type A B`: B's underlying kind, without B's type-level validations.
    Alias(TypeId),
    /// A name being resolved (only during compilation).
    Pending,
}

/// A struct field as JSON sees it.
#[derive(Debug)]
pub(crate) struct Field {
    pub go_name: String,
    pub json_name: String,
    pub ty: TypeId,
    /// An embedded struct whose fields are promoted (`json:",inline"`).
    pub inline: bool,
    /// `json:",omitempty"`: zero values are left out when marshaled.
    pub omitempty: bool,
    pub validations: Vec<Validator>,
    pub pos: Pos,
    /// `+k8s:opaqueType` on a field of a named type or a struct: the type's validation
    /// function is not called (the field's own tags still run).
    pub opaque: bool,
    /// `+k8s:eachVal=+k8s:opaqueType` / `+k8s:eachKey=+k8s:opaqueType`: the list items' or map
    /// values' (keys') type validation is not called; the field's own tags still run.
    pub opaque_values: bool,
    pub opaque_keys: bool,
    /// The `+default=` marker's value (see [`super::defaults`]).
    pub default: Option<serde_json::Value>,
}

impl Field {
    /// The field without its compiled validations (see [`Kind::layout`]).
    fn layout(&self) -> Field {
        Field {
            go_name: self.go_name.clone(),
            json_name: self.json_name.clone(),
            ty: self.ty,
            inline: self.inline,
            omitempty: self.omitempty,
            validations: Vec::new(),
            pos: self.pos,
            opaque: self.opaque,
            opaque_values: self.opaque_values,
            opaque_keys: self.opaque_keys,
            default: self.default.clone(),
        }
    }
}

impl Kind {
    /// A copy to match tags against while the schema is being compiled: a struct's fields
    /// without their validations, which only the schema's own types carry.
    pub(crate) fn layout(&self) -> Kind {
        match *self {
            Kind::Struct(ref fields) => Kind::Struct(fields.iter().map(Field::layout).collect()),
            Kind::String => Kind::String,
            Kind::Bool => Kind::Bool,
            Kind::Int { min, max } => Kind::Int { min, max },
            Kind::Float => Kind::Float,
            Kind::Bytes => Kind::Bytes,
            Kind::Pointer(t) => Kind::Pointer(t),
            Kind::Slice(t) => Kind::Slice(t),
            Kind::Map(k, v) => Kind::Map(k, v),
            Kind::Opaque => Kind::Opaque,
            Kind::Alias(t) => Kind::Alias(t),
            Kind::Pending => Kind::Pending,
        }
    }
}

/// How a list's items are identified (`+k8s:listType`, `+k8s:unique`, `+k8s:listMapKey`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ListSpec {
    /// Items are identified by their whole value (`set`).
    pub set: bool,
    /// Items are identified by these fields (`map`, JSON names).
    pub keys: Vec<String>,
}

/// One type of the schema.
#[derive(Debug)]
pub(crate) struct TypeNode {
    /// How Go spells it (`Widget`, `[]string`, `*int32`).
    pub name: String,
    pub kind: Kind,
    /// Validations from the type declaration's tags.
    pub validations: Vec<Validator>,
    /// For lists: how items are identified (none: atomic, items never correlate).
    pub list: Option<ListSpec>,
    /// `+k8s:opaqueType` on the type declaration: validation-gen's `hasValidations` stops at
    /// it, so nothing inside (fields, items, values) is validated through it.
    pub opaque: bool,
    /// `+k8s:eachVal=+k8s:opaqueType` / `+k8s:eachKey=+k8s:opaqueType` on a list or map type
    /// declaration: its function does not call its values' (keys') type validation.
    pub opaque_elements: (bool, bool),
    /// An apimachinery type with its own `UnmarshalJSON`, which decoding checks
    /// ([`super::strict`]): `resource.Quantity`, `intstr.IntOrString`, `v1.Time`,
    /// `v1.MicroTime`, `v1.Duration`, `v1.ObjectMeta` (Go's package-qualified name).
    pub well_known: Option<&'static str>,
}

/// A compiled `types.go`: reusable for any number of validations.
#[derive(Debug)]
pub struct Schema {
    pub(crate) types: Vec<TypeNode>,
    /// Declared type names and their ids, in declaration order.
    pub(crate) declared: Vec<(String, TypeId)>,
    /// Types declared as Go aliases (`type A = B`), which reflect names by what they alias.
    pub(crate) go_aliases: Vec<TypeId>,
    /// Types that look like API roots (structs embedding TypeMeta, else unreferenced structs).
    pub(crate) roots: Vec<TypeId>,
    /// The validation options the tags mention (`+k8s:ifEnabled(Name)`).
    pub(crate) options: Vec<String>,
    /// Per type: whether it or anything inside it carries validations (computed once, so the
    /// walker skips unvalidated subtrees without searching the graph each time).
    pub(crate) validated: Vec<bool>,
    /// Per type: whether a `+default` marker can be reached through it.
    pub(crate) defaulted: Vec<bool>,
    /// What was wrong or not evaluated in the source.
    pub diagnostics: Vec<Diagnostic>,
    /// The Go package name (Kubernetes prints types as `*v1.Widget`).
    pub(crate) package: String,
    /// Per declared type: the request paths its validation answers (`/`, `/status`, ...), from
    /// `+k8s:supportsSubresource` / `+k8s:isSubresource` on the type.
    pub(crate) subresources: Vec<(TypeId, Vec<String>)>,
}

impl Schema {
    /// Compiles Go source with `+k8s:` tags. Never fails: problems are in
    /// [`Schema::diagnostics`] (an error diagnostic means validation-gen would refuse the input).
    pub fn compile(src: &str) -> Schema {
        super::compile::compile(src, &[], super::shadow::NEWEST_MINOR)
    }

    /// Compiles Go source whose imports may resolve to other packages' sources: a field of type
    /// `corev1.PodSpec` is validated with core/v1's own tags, as the generated code chains into
    /// the other package's validation. Diagnostics in a dependency carry its
    /// [`Dependency::label`] in [`Diagnostic::file`]. `minor` is the Kubernetes version (1.N)
    /// whose apimachinery types the imports of `k8s.io/apimachinery` not given resolve to.
    pub fn compile_with(src: &str, deps: &[Dependency<'_>], minor: u32) -> Schema {
        super::compile::compile(src, deps, minor)
    }

    /// The request paths the generated dispatcher validates for a type: `/` plus its
    /// `+k8s:supportsSubresource`s, or only its `+k8s:isSubresource`s.
    pub fn subresource_paths(&self, id: TypeId) -> Vec<String> {
        self.subresources.iter().find(|(t, _)| *t == id).map_or_else(|| alloc::vec!["/".into()], |(_, p)| p.clone())
    }

    /// The Go package name of the compiled source (`v1`): the API version of its kinds.
    pub fn package_name(&self) -> &str {
        &self.package
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The id of a declared type.
    pub fn type_named(&self, name: &str) -> Option<TypeId> {
        self.declared.iter().find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    /// How Go spells a type (`Widget`, `[]string`).
    pub fn type_name(&self, id: TypeId) -> &str {
        self.types.get(id).map_or("", |t| t.name.as_str())
    }

    /// The type a request validates an object as: the one named, else the only type that
    /// looks like an API root. Every front end picks it here and words the error itself.
    pub fn root(&self, name: Option<&str>) -> Result<TypeId, RootError> {
        let types = || self.type_names().iter().map(|s| String::from(*s)).collect();
        if let Some(name) = name {
            return self
                .type_named(name)
                .ok_or_else(|| RootError::NoSuchType { name: String::from(name), types: types() });
        }
        match self.root_candidates().as_slice() {
            [one] => self.type_named(one).ok_or(RootError::NoRoot { types: Vec::new() }),
            [] => Err(RootError::NoRoot { types: types() }),
            many => Err(RootError::Several { candidates: many.iter().map(|s| String::from(*s)).collect() }),
        }
    }

    /// The names of the types that look like API roots.
    pub fn root_candidates(&self) -> Vec<&str> {
        self.roots.iter().map(|id| self.types[*id].name.as_str()).collect()
    }

    /// The declared type names.
    pub fn type_names(&self) -> Vec<&str> {
        self.declared.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The validation options the tags mention.
    pub fn options(&self) -> &[String] {
        &self.options
    }

    /// How many struct fields reachable from `root` have declarative rules: their own tags, or
    /// their type's (each struct type counted once, however often it is reached). Kubedv says
    /// it with a built-in kind's verdict, so nobody takes the count for all of its validation.
    pub fn validated_fields(&self, root: TypeId) -> usize {
        let mut seen = alloc::vec![false; self.types.len()];
        let mut stack = alloc::vec![root];
        let mut count = 0;
        while let Some(id) = stack.pop() {
            if id >= self.types.len() || core::mem::replace(&mut seen[id], true) || !self.validated[id] {
                continue;
            }
            match &self.types[id].kind {
                Kind::Pointer(a) | Kind::Slice(a) | Kind::Alias(a) => stack.push(*a),
                Kind::Map(a, b) => stack.extend([*a, *b]),
                Kind::Struct(fields) => {
                    for f in fields {
                        let (ty, _) = self.deref(f.ty);
                        if !f.validations.is_empty() || !self.types[ty].validations.is_empty() {
                            count += 1;
                        }
                        if !f.opaque {
                            stack.push(f.ty);
                        }
                    }
                }
                _ => {}
            }
        }
        count
    }

    /// Computes [`Schema::validated`]: a fixpoint, as types may refer to each other in cycles.
    pub(crate) fn mark_validated(&mut self) {
        let mut v: Vec<bool> = self.types.iter().map(|t| !t.validations.is_empty()).collect();
        loop {
            let mut changed = false;
            for (i, t) in self.types.iter().enumerate() {
                if v[i] || t.opaque {
                    continue;
                }
                let inner = match &t.kind {
                    Kind::Pointer(a) | Kind::Slice(a) | Kind::Alias(a) => v[*a],
                    Kind::Map(a, b) => v[*a] || v[*b],
                    Kind::Struct(fields) => fields.iter().any(|f| !f.validations.is_empty() || (!f.opaque && v[f.ty])),
                    _ => false,
                };
                if inner {
                    v[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.validated = v;
    }

    /// validation-gen 1.37 (validation.go, `PtrSliceNoNils`): a struct field whose Go type is
    /// a slice of pointers, with validations of its own or an element type that has some,
    /// first checks that no item is nil; the check short-circuits the field's other validations.
    /// (Type-level validation functions get no such check.)
    pub(crate) fn guard_pointer_lists(&mut self) {
        for t in 0..self.types.len() {
            let Kind::Struct(fields) = &self.types[t].kind else { continue };
            let guarded: Vec<usize> = (0..fields.len())
                .filter(|&i| {
                    let f = &fields[i];
                    let elem_is_pointer = match self.kind(f.ty) {
                        Kind::Slice(elem) => matches!(self.kind(*elem), Kind::Pointer(_)),
                        _ => false,
                    };
                    elem_is_pointer && (!f.validations.is_empty() || (!f.opaque && self.validated[f.ty]))
                })
                .collect();
            let Kind::Struct(fields) = &mut self.types[t].kind else { continue };
            for i in guarded {
                let check = Validator {
                    check: Check::NoNilItems,
                    stability: Stability::Stable,
                    sort_key: "",
                    short_circuit: true,
                    non_error: false,
                };
                fields[i].validations.insert(0, check);
            }
        }
    }

    /// A list type's item identity, following aliases and pointers.
    pub(crate) fn list_spec(&self, mut id: TypeId) -> Option<&ListSpec> {
        for _ in 0..=self.types.len() {
            let node = &self.types[id];
            if let Some(spec) = &node.list {
                return Some(spec);
            }
            match node.kind {
                Kind::Alias(next) | Kind::Pointer(next) => id = next,
                _ => return None,
            }
        }
        None
    }

    /// The identity a list's items are correlated by when they are walked for their own type's
    /// validation. A named list type's function iterates them with the metadata of the type's
    /// own tags (validation-gen each.go `getListValidations` looks up the type's path), not the
    /// field's: a field's `listType=map` on a named list type leaves its items uncorrelated
    /// there. An unnamed list's items are walked by the field's function, with the field's.
    pub(crate) fn item_spec(&self, id: TypeId) -> Option<&ListSpec> {
        let node = &self.types[id];
        match node.kind {
            // compile_field_tags' copy of a field's type (same name) carries the field's tags.
            Kind::Alias(base) if self.types[base].name == node.name && !node.name.starts_with('[') => {
                self.list_spec(base)
            }
            _ => self.list_spec(id),
        }
    }

    /// Follows aliases to the underlying kind.
    pub(crate) fn kind(&self, mut id: TypeId) -> &Kind {
        for _ in 0..self.types.len() + 1 {
            match &self.types[id].kind {
                Kind::Alias(next) => id = *next,
                k => return k,
            }
        }
        &Kind::Opaque
    }

    /// The type behind any pointers: `(type, is_pointer)`.
    pub(crate) fn deref(&self, mut id: TypeId) -> (TypeId, bool) {
        let mut pointer = false;
        // Bounded: `type P *P` must not loop.
        for _ in 0..self.types.len() + 1 {
            match self.kind(id) {
                Kind::Pointer(inner) => {
                    id = *inner;
                    pointer = true;
                }
                _ => break,
            }
        }
        (id, pointer)
    }
}

/// Why [`Schema::root`] found no type to validate as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootError {
    /// No type has the name asked for.
    NoSuchType {
        /// The name asked for.
        name: String,
        /// The declared types.
        types: Vec<String>,
    },
    /// No type looks like an API root.
    NoRoot {
        /// The declared types.
        types: Vec<String>,
    },
    /// Several types look like API roots.
    Several {
        /// The types that do.
        candidates: Vec<String>,
    },
}
