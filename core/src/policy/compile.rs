//! Admission CEL: compiling a policy's expressions in the admission environment (apiserver
//! `pkg/admission/plugin/cel/compile.go`) and the activation they run with
//! (`activation.go`, `composition.go`).
//!
//! `object`, `oldObject` and `params` are `dyn`; `request` and `namespaceObject` are the
//! declared object types `kubernetes.AdmissionRequest` and `kubernetes.Namespace` (another
//! field is a compile error); `authorizer` and `authorizer.requestResource` exist where the
//! API server declares them; `variables` has one field per composited variable, typed by its
//! expression, computed when first read and then kept for the rest of the evaluation pass.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Cell, OnceCell};

use crate::cel::checker::{self, CelType, Decls, ObjectType};
use crate::cel::{self, cost, Activation, Program, Value};
use crate::field::go_quote;

/// What an expression must evaluate to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// `bool` (validations, match conditions).
    Bool,
    /// `string` (message expressions).
    String,
    /// `string` or `null` (audit annotation values).
    StringOrNull,
    /// Anything (variables).
    Any,
    /// `list(JSONPatch)` (JSONPatch mutations).
    JsonPatches,
    /// `Object` (ApplyConfiguration mutations).
    ApplyObject,
}

/// Which optional variables an expression sees (`OptionalVariableDeclarations`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    /// `params` (the policy has a `paramKind`).
    pub params: bool,
    /// `authorizer`, `authorizer.requestResource`.
    pub authorizer: bool,
    /// `Object{...}`, `JSONPatch{...}`, `jsonpatch.escapeKey` (mutations).
    pub patch_types: bool,
    /// The CEL environment's compatibility version (1.N): see [`crate::cel::environment`].
    pub compatibility: u32,
}

/// A compiled expression, or why it did not compile (the text after `compilation error: `).
pub struct Compiled {
    /// The source text.
    pub source: String,
    /// The program, or the API server's compile error.
    pub program: Result<Program, String>,
    /// The checked result type.
    pub output: CelType,
}

fn object(name: &str, fields: &[(&str, CelType)]) -> CelType {
    let fields = fields.iter().map(|(k, t)| (String::from(*k), t.clone())).collect();
    CelType::Object(Rc::new(ObjectType { name: String::from(name), fields }))
}

fn list_of(t: CelType) -> CelType {
    CelType::List(Rc::new(t))
}

/// `BuildRequestType`.
fn request_type() -> CelType {
    use CelType as T;
    let gvk =
        object("kubernetes.GroupVersionKind", &[("group", T::String), ("version", T::String), ("kind", T::String)]);
    let gvr = object(
        "kubernetes.GroupVersionResource",
        &[("group", T::String), ("version", T::String), ("resource", T::String)],
    );
    let user = object(
        "kubernetes.UserInfo",
        &[
            ("username", T::String),
            ("uid", T::String),
            ("groups", list_of(T::String)),
            ("extra", T::Map(Rc::new(T::String), Rc::new(list_of(T::String)))),
        ],
    );
    object(
        "kubernetes.AdmissionRequest",
        &[
            ("kind", gvk.clone()),
            ("resource", gvr.clone()),
            ("subResource", T::String),
            ("requestKind", gvk),
            ("requestResource", gvr),
            ("requestSubResource", T::String),
            ("name", T::String),
            ("namespace", T::String),
            ("operation", T::String),
            ("userInfo", user),
            ("dryRun", T::Bool),
            ("options", T::Dyn),
        ],
    )
}

/// `BuildNamespaceType` (its metadata declares `UID`, as the API server's does).
fn namespace_type() -> CelType {
    use CelType as T;
    let strings = list_of(T::String);
    let string_map = T::Map(Rc::new(T::String), Rc::new(T::String));
    let condition = object(
        "kubernetes.NamespaceCondition",
        &[
            ("status", T::String),
            ("type", T::String),
            ("lastTransitionTime", T::Timestamp),
            ("message", T::String),
            ("reason", T::String),
        ],
    );
    object(
        "kubernetes.Namespace",
        &[
            (
                "metadata",
                object(
                    "kubernetes.NamespaceMetadata",
                    &[
                        ("name", T::String),
                        ("generateName", T::String),
                        ("namespace", T::String),
                        ("labels", string_map.clone()),
                        ("annotations", string_map),
                        ("UID", T::String),
                        ("creationTimestamp", T::Timestamp),
                        ("deletionGracePeriodSeconds", T::Int),
                        ("deletionTimestamp", T::Timestamp),
                        ("generation", T::Int),
                        ("resourceVersion", T::String),
                        ("finalizers", strings.clone()),
                    ],
                ),
            ),
            ("spec", object("kubernetes.NamespaceSpec", &[("finalizers", strings)])),
            (
                "status",
                object("kubernetes.NamespaceStatus", &[("conditions", list_of(condition)), ("phase", T::String)]),
            ),
        ],
    )
}

fn opaque(name: &str) -> CelType {
    CelType::Opaque(Rc::from(name), Rc::from([]))
}

/// The declarations of an environment, with the variables composited so far.
pub struct Declarations {
    base: Decls,
    variables: BTreeMap<String, CelType>,
    /// `variables` is declared (a `CompositedCompiler`'s environment; the stateless compiler
    /// of admissionregistration validation declares no `variables`).
    composited: bool,
}

impl Declarations {
    /// `createEnvForOpts`.
    pub fn new(env: Env) -> Declarations {
        let mut base = Decls::default();
        base.set_compatibility(env.compatibility);
        base.declare("object", CelType::Dyn);
        base.declare("oldObject", CelType::Dyn);
        base.declare("namespaceObject", namespace_type());
        base.declare("request", request_type());
        if env.params {
            base.declare("params", CelType::Dyn);
        }
        if env.patch_types {
            base.enable_patch_types();
        }
        if env.authorizer {
            base.declare("authorizer", opaque("kubernetes.authorization.Authorizer"));
            base.declare("authorizer.requestResource", opaque("kubernetes.authorization.ResourceCheck"));
        }
        Declarations { base, variables: BTreeMap::new(), composited: true }
    }

    /// The environment of the stateless compiler (`plugincel.NewCompiler`), which
    /// admissionregistration validation compiles match conditions with (and a policy's other
    /// expressions when it has no variables): no `variables` declared.
    pub fn stateless(env: Env) -> Declarations {
        Declarations { composited: false, ..Declarations::new(env) }
    }

    /// Types `object` and `oldObject` (and `params`) by their kinds' schemas, as the policy
    /// type checker does (`typechecking.go`); they are `dyn` otherwise.
    pub fn with_types(mut self, object: Option<CelType>, params: Option<CelType>) -> Declarations {
        if let Some(t) = object {
            self.base.declare("object", t.clone());
            self.base.declare("oldObject", t);
        }
        if let Some(t) = params {
            self.base.declare("params", t);
        }
        self
    }

    /// Adds a composited variable's type.
    pub fn add_variable(&mut self, name: &str, t: CelType) {
        self.variables.insert(String::from(name), t);
    }

    /// Compiles an expression (`CompileCELExpression`). Its error is the detail the API server
    /// reports at creation (see [`creation_error`]).
    pub fn compile(&self, source: &str, returns: Returns) -> Compiled {
        let mut decls = self.base.clone();
        if self.composited {
            let fields = self.variables.clone();
            decls.declare(
                "variables",
                CelType::Object(Rc::new(ObjectType { name: String::from("kubernetes.variables"), fields })),
            );
        }
        let fail =
            |message: String| Compiled { source: String::from(source), program: Err(message), output: CelType::Dyn };
        let unoptimized = match Program::compile(source) {
            Ok(p) => p,
            Err(e) => return fail(cel::display_error("compilation failed: ", &e, source)),
        };
        let (output, checked) = match checker::check_kubernetes_overloads(&unoptimized, &decls) {
            Ok(t) => t,
            Err(e) => return fail(cel::display_error("compilation failed: ", &e, source)),
        };
        // IsExactType: a `dyn` result is not a `bool`.
        let ok = match returns {
            Returns::Bool => output == CelType::Bool,
            Returns::String => output == CelType::String,
            Returns::StringOrNull => matches!(output, CelType::String | CelType::Null),
            Returns::Any => true,
            Returns::JsonPatches => matches!(&output, CelType::List(t) if **t == opaque("JSONPatch")),
            Returns::ApplyObject => output == opaque("Object"),
        };
        if !ok {
            return fail(match returns {
                Returns::Bool => format!("must evaluate to bool but got {output}"),
                Returns::String => format!("must evaluate to string but got {output}"),
                Returns::JsonPatches => format!("must evaluate to list(JSONPatch) but got {output}"),
                Returns::ApplyObject => format!("must evaluate to Object but got {output}"),
                _ => format!("must evaluate to one of [string null_type] but got {output}"),
            });
        }
        // admission plugin/cel/compile.go: after the check, `env.Program`.
        match checker::instantiate(&unoptimized, source, &checked) {
            Ok(program) => Compiled { source: String::from(source), program: Ok(program), output },
            Err(m) => fail(format!("{INSTANTIATION}{m}")),
        }
    }
}

/// A composited variable.
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its expression.
    pub expr: Compiled,
}

/// Compiles `variables` in order, each seeing the ones before it.
pub fn compile_variables(decls: &mut Declarations, vars: &[super::model::NamedExpression]) -> Vec<Variable> {
    let mut out = Vec::new();
    for v in vars {
        let expr = decls.compile(&v.expression, Returns::Any);
        decls.add_variable(&v.name, expr.output.clone());
        out.push(Variable { name: v.name.clone(), expr });
    }
    out
}

/// What both kinds of policy compile alike: the composited variables and the match
/// conditions (with the authorizer), and the declarations for their other expressions in
/// `other` (the same variables, typed).
pub struct Common {
    /// The environment of variables and match conditions.
    pub decls: Declarations,
    /// The composited variables.
    pub variables: Vec<Variable>,
    /// The match conditions, by name.
    pub match_conditions: Vec<(String, Compiled)>,
    /// The environment `other` asked for, with the variables declared.
    pub other: Declarations,
}

/// Compiles a policy's variables and match conditions.
pub fn compile_common(spec: &super::model::PolicySpec, other: Env) -> Common {
    let params = spec.param_kind.is_some();
    let mut decls = Declarations::new(Env { params, authorizer: true, patch_types: false, ..other });
    let variables = compile_variables(&mut decls, &spec.variables);
    let mut other = Declarations::new(Env { params, ..other });
    for v in &variables {
        other.add_variable(&v.name, v.expr.output.clone());
    }
    let match_conditions =
        spec.match_conditions.iter().map(|m| (m.name.clone(), decls.compile(&m.expression, Returns::Bool))).collect();
    Common { decls, variables, match_conditions, other }
}

/// The activation of one evaluation pass (`evaluationActivation` with its composition
/// context): the bound variables, and the composited ones, computed on first use.
pub struct Pass<'a> {
    fixed: BTreeMap<&'static str, Value>,
    variables: &'a [Variable],
    cache: Vec<OnceCell<Result<Value, String>>>,
    /// The cost of the composited variables computed so far.
    pub composition_cost: Cell<u64>,
}

impl<'a> Pass<'a> {
    /// Binds `object`, `oldObject`, `request`, ... and the composited variables.
    pub fn new(fixed: BTreeMap<&'static str, Value>, variables: &'a [Variable]) -> Self {
        let cache = variables.iter().map(|_| OnceCell::new()).collect();
        Pass { fixed, variables, cache, composition_cost: Cell::new(0) }
    }

    /// Evaluates a compiled expression in this activation: its value or the API server's
    /// error text (`expression '...' resulted in error: ...`, `compilation error: ...`), and
    /// its cost (its own and that of the variables it computed first).
    pub fn eval(&self, c: &Compiled) -> (Result<Value, String>, u64) {
        let program = match &c.program {
            Ok(p) => p,
            Err(e) => return (Err(format!("compilation error: {e}")), 0),
        };
        let before = self.composition_cost.get();
        let (result, cost) = program.eval_costed(self, cost::PER_CALL_LIMIT);
        let composed = self.composition_cost.get() - before;
        let result = result.map_err(|e| format!("expression '{}' resulted in error: {}", c.source, e.message));
        (result, cost.saturating_add(composed))
    }
}

impl Activation for Pass<'_> {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.fixed.get(name)
    }

    fn resolve_lazy(&self, name: &str) -> Option<Result<Value, String>> {
        let wanted = name.strip_prefix("variables.")?;
        let i = self.variables.iter().position(|v| v.name == wanted)?;
        let var = &self.variables[i];
        let result = self.cache[i].get_or_init(|| match &var.expr.program {
            Err(e) => Err(format!("composited variable {} fails to compile: {e}", go_quote(&var.name))),
            Ok(p) => {
                let (result, cost) = p.eval_costed(self, cost::PER_CALL_LIMIT);
                self.composition_cost.set(self.composition_cost.get().saturating_add(cost));
                result.map_err(|e| {
                    format!("composited variable {} fails to evaluate: {}", go_quote(&var.name), e.message)
                })
            }
        });
        Some(result.clone())
    }
}

/// compile.go's detail for a program cel-go could not build, an `ErrorTypeInternal`.
const INSTANTIATION: &str = "program instantiation failed: ";

/// How admissionregistration validation.go refuses an expression that does not compile:
/// `Invalid value: "<expression>": <detail>`, or `Internal error: <detail>` for a program cel-go
/// could not build (`convertCELErrorToValidationError`, `field.InternalError`).
pub(crate) fn creation_error(path: &str, source: &str, detail: &str) -> crate::field::Error {
    use crate::field::{Error, ErrorType, Path};
    match detail.starts_with(INSTANTIATION) {
        true => Error::new(ErrorType::Internal, &Path::named(path), None, detail),
        false => Error::new(ErrorType::Invalid, &Path::named(path), Some(serde_json::Value::from(source)), detail),
    }
}
