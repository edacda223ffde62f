//! The `+k8s:` tag catalog as data: what each tag does, its stability, where it may be used,
//! its arguments and payload, and an example. Descriptions are kubedv's own words; names,
//! stability levels and scopes follow validation-gen's registry (TagDoc values).

use serde::Serialize;

/// Where a tag may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Scope {
    /// On a type declaration's comment.
    Type,
    /// On a struct field's comment.
    Field,
    /// As the payload of eachVal (list items, map values).
    ListVal,
    /// As the payload of eachKey (map keys).
    MapKey,
    /// On a constant's comment.
    Const,
}

/// The stability of a tag in validation-gen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TagStability {
    /// Alpha.
    Alpha,
    /// Beta.
    Beta,
    /// Stable.
    Stable,
    /// Generator wiring, not a validator.
    Metadata,
}

/// One tag's documentation.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TagDoc {
    /// The name without `+` (`k8s:maxLength`).
    pub name: &'static str,
    /// What it does.
    pub description: &'static str,
    /// Its stability.
    pub stability: TagStability,
    /// Where it may be written.
    pub scopes: &'static [Scope],
    /// Its arguments, as `name (type): meaning`.
    pub args: &'static [&'static str],
    /// Its payload, as `<kind>: meaning`, or empty.
    pub payload: &'static str,
    /// A small example.
    pub example: &'static str,
}

use Scope::*;
use TagStability::*;

/// validation-gen's common scope set (type, field, list value, map key, map value).
const VALUE_SCOPES: &[Scope] = &[Type, Field, ListVal, MapKey];
const WRAPPER_SCOPES: &[Scope] = VALUE_SCOPES;

/// What the compiler needs of a tag: its name, stability and scopes.
#[derive(Clone, Copy, Debug)]
pub struct TagSpec {
    /// The name without `+` (`k8s:maxLength`).
    pub name: &'static str,
    /// Its stability.
    pub stability: TagStability,
    /// Where it may be written.
    pub scopes: &'static [Scope],
}

/// One list of tags makes two tables: [`TAGS`], the documentation (`kubedv tags`, the
/// playground), and [`SPECS`], what compiling needs. Only the second is linked into a build
/// that compiles types without showing docs, such as the npm package's core `.wasm`.
macro_rules! catalog {
    ($(TagDoc { name: $name:literal, description: $d:literal, stability: $s:ident, scopes: $sc:expr, args: $a:expr, payload: $p:literal, example: $e:literal },)*) => {
        /// Every tag of the Kubernetes catalog, documented.
        pub static TAGS: &[TagDoc] = &[$(TagDoc { name: $name, description: $d, stability: $s, scopes: $sc, args: $a, payload: $p, example: $e },)*];
        /// Every tag of the Kubernetes catalog, as the compiler sees it (the order of [`TAGS`]).
        pub static SPECS: &[TagSpec] = &[$(TagSpec { name: $name, stability: $s, scopes: $sc },)*];
    };
}

catalog! {
    TagDoc { name: "k8s:alpha", description: "Runs the payload validation as an alpha rule: its errors are only compared with handwritten validation (shadow mode), never returned.", stability: Beta, scopes: WRAPPER_SCOPES, args: &["since (string): the Kubernetes version (1.N) the rule entered alpha"], payload: "<validation-tag>: the rule to run as alpha", example: "// +k8s:alpha(since: \"1.36\")=+k8s:minimum=1\nReplicas int `json:\"replicas\"`" },
    TagDoc { name: "k8s:beta", description: "Runs the payload validation as a beta rule: enforced while the DeclarativeValidationBeta gate is on (the default), shadowed when it is off.", stability: Beta, scopes: WRAPPER_SCOPES, args: &["since (string): the Kubernetes version (1.N) the rule entered beta"], payload: "<validation-tag>: the rule to run as beta", example: "// +k8s:beta(since: \"1.37\")=+k8s:minimum=1\nReplicas int `json:\"replicas\"`" },
    TagDoc { name: "k8s:customUnique", description: "Says the list's uniqueness is checked by handwritten code, so no duplicate check is generated.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "", example: "// +k8s:listType=set\n// +k8s:customUnique\nNames []string `json:\"names\"`" },
    TagDoc { name: "k8s:customValidation", description: "Calls a handwritten ValidateCustom_<Type>[_<Field>] function from the generated code. kubedv cannot run handwritten Go: it accepts the tag and says its errors are not modeled.", stability: Stable, scopes: &[Type, Field], args: &[], payload: "", example: "// +k8s:customValidation\nPriority int32 `json:\"priority\"`" },
    TagDoc { name: "k8s:dependentForbidden", description: "When this field is set (non-nil, non-empty or non-zero), the named sibling field must not be set.", stability: Alpha, scopes: &[Field], args: &["<json name> (positional): the sibling"], payload: "", example: "type Spec struct {\n\t// +k8s:dependentForbidden(\"legacy\")\n\tModern *string `json:\"modern\"`\n\tLegacy *string `json:\"legacy\"`\n}" },
    TagDoc { name: "k8s:dependentRequired", description: "When this field is set (non-nil, non-empty or non-zero), the named sibling field must be set too.", stability: Alpha, scopes: &[Field], args: &["<json name> (positional): the sibling"], payload: "", example: "type Spec struct {\n\t// +k8s:dependentRequired(\"backoffLimit\")\n\tMaxFailed *int32 `json:\"maxFailed\"`\n\tBackoffLimit *int32 `json:\"backoffLimit\"`\n}" },
    TagDoc { name: "k8s:discriminator", description: "Kubernetes 1.36's name for +k8s:modeDiscriminator (renamed in 1.37): marks the field whose value selects which +k8s:member validations apply to its sibling fields; string, bool or integer.", stability: Alpha, scopes: &[Field], args: &["name (string): the discriminator group, when there are several"], payload: "", example: "// +k8s:discriminator\nType string `json:\"type\"`" },
    TagDoc { name: "k8s:eachKey", description: "Applies the payload validation to every key of a map.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<validation-tag>: the rule for each key", example: "// +k8s:eachKey=+k8s:format=k8s-label-key\nLabels map[string]string `json:\"labels\"`" },
    TagDoc { name: "k8s:eachVal", description: "Applies the payload validation to every item of a list or every value of a map.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<validation-tag>: the rule for each value", example: "// +k8s:eachVal=+k8s:minimum=1\nWeights map[string]int `json:\"weights\"`" },
    TagDoc { name: "k8s:enum", description: "Makes a string type an enum: only the values of its declared constants are accepted (minus +k8s:enumExclude ones).", stability: Stable, scopes: &[Type], args: &[], payload: "", example: "// +k8s:enum\ntype Phase string\n\nconst (\n\tPhasePending Phase = \"Pending\"\n\tPhaseDone    Phase = \"Done\"\n)" },
    TagDoc { name: "k8s:enumExclude", description: "Leaves one constant out of its enum; wrap it in +k8s:ifEnabled/+k8s:ifDisabled to leave it out conditionally.", stability: Alpha, scopes: &[Const], args: &[], payload: "", example: "// +k8s:enum\ntype Phase string\n\nconst (\n\tPhasePending Phase = \"Pending\"\n\t// +k8s:enumExclude\n\tPhaseInternal Phase = \"Internal\"\n)" },
    TagDoc { name: "k8s:forbidden", description: "The field must not be set (zero, nil or empty).", stability: Beta, scopes: &[Field], args: &[], payload: "", example: "// +k8s:forbidden\nLegacy string `json:\"legacy,omitempty\"`" },
    TagDoc { name: "k8s:format", description: "The string must have a Kubernetes format: k8s-short-name, k8s-long-name, k8s-long-name-caseless, k8s-label-key, k8s-prefixed-label-key, k8s-label-value, k8s-uuid, k8s-path-segment-name, k8s-resource-fully-qualified-name, k8s-extended-resource-name or k8s-resource-pool-name.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<format>: the format name", example: "// +k8s:format=k8s-label-key\nKey string `json:\"key\"`" },
    TagDoc { name: "k8s:ifDisabled", description: "Runs the payload validation only while the named validation option is off.", stability: Stable, scopes: &[Type, Field, ListVal, MapKey, Const], args: &["<option> (positional): the option name"], payload: "<validation-tag>: the conditional rule", example: "// +k8s:ifDisabled(RelaxedNames)=+k8s:format=k8s-short-name\nName string `json:\"name\"`" },
    TagDoc { name: "k8s:ifEnabled", description: "Runs the payload validation only while the named validation option is on.", stability: Stable, scopes: &[Type, Field, ListVal, MapKey, Const], args: &["<option> (positional): the option name"], payload: "<validation-tag>: the conditional rule", example: "// +k8s:ifEnabled(MyFeature)=+k8s:required\nMyField string `json:\"myField\"`" },
    TagDoc { name: "k8s:ifMode", description: "Runs the payload validation only when the struct's mode discriminator has the given value.", stability: Stable, scopes: &[Field], args: &["<mode> (positional) or mode (string): the discriminator value", "modality (string): the discriminator group, when there are several"], payload: "<validation-tag>: the rule for that mode", example: "type Source struct {\n\t// +k8s:modeDiscriminator\n\tMode string `json:\"mode\"`\n\n\t// +k8s:ifMode(\"File\")=+k8s:required\n\tFile *FileSource `json:\"file,omitempty\"`\n}\n\ntype FileSource struct {\n\tPath string `json:\"path\"`\n}" },
    TagDoc { name: "k8s:immutable", description: "The field may not change once the object exists (set, unset or modify).", stability: Stable, scopes: &[Type, Field, ListVal], args: &[], payload: "", example: "// +k8s:immutable\nClassName string `json:\"className\"`" },
    TagDoc { name: "k8s:isSubresource", description: "Marks a type as the validation shape of a subresource of a root type that declares it with +k8s:supportsSubresource.", stability: Metadata, scopes: &[Type], args: &[], payload: "<path>: the subresource, e.g. \"/scale\"", example: "// +k8s:isSubresource=\"/scale\"\ntype WidgetScale struct {\n\t// +k8s:minimum=0\n\tReplicas int32 `json:\"replicas\"`\n}" },
    TagDoc { name: "k8s:item", description: "Applies the payload validation to the list-map item whose keys have the given values (every key must be given).", stability: Stable, scopes: VALUE_SCOPES, args: &["<key json name>: <string | int | bool>, one per list-map key"], payload: "<validation-tag>: the rule for the matching item", example: "type Status struct {\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=type\n\t// +k8s:item(type: \"Ready\")=+k8s:immutable\n\tConditions []Condition `json:\"conditions\"`\n}\n\ntype Condition struct {\n\tType   string `json:\"type\"`\n\tStatus string `json:\"status\"`\n}" },
    TagDoc { name: "k8s:listMapKey", description: "Names a field of the list's items that is part of the list-map key (repeat for compound keys).", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<json name>: the key field", example: "type Service struct {\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=name\n\tPorts []Port `json:\"ports\"`\n}\n\ntype Port struct {\n\tName string `json:\"name\"`\n\tPort int32  `json:\"port\"`\n}" },
    TagDoc { name: "k8s:listType", description: "Declares how a list is owned and identified: atomic (one owner, no identity), set (unique values), map (unique by +k8s:listMapKey fields).", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "atomic | set | map", example: "// +k8s:listType=set\nFinalizers []string `json:\"finalizers\"`" },
    TagDoc { name: "k8s:maxBytes", description: "The string may be at most N bytes long (a multi-byte character counts several).", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<non-negative integer>: the limit in bytes", example: "// +k8s:maxBytes=64\nToken string `json:\"token\"`" },
    TagDoc { name: "k8s:maxItems", description: "The list may have at most N items.", stability: Stable, scopes: &[Type, Field, ListVal], args: &[], payload: "<non-negative integer>: the limit", example: "// +k8s:maxItems=16\nHosts []string `json:\"hosts\"`" },
    TagDoc { name: "k8s:maxLength", description: "The string may be at most N characters long (Unicode code points).", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<non-negative integer>: the limit in characters", example: "// +k8s:maxLength=63\nName string `json:\"name\"`" },
    TagDoc { name: "k8s:maxProperties", description: "The map may have at most N entries.", stability: Stable, scopes: &[Type, Field], args: &[], payload: "<non-negative integer>: the limit (at most 100000)", example: "// +k8s:maxProperties=8\nLabels map[string]string `json:\"labels\"`" },
    TagDoc { name: "k8s:maximum", description: "The integer must be less than or equal to N.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<integer>: the maximum", example: "// +k8s:maximum=100\nPercent int32 `json:\"percent\"`" },
    TagDoc { name: "k8s:member", description: "Kubernetes 1.36's name for +k8s:ifMode (renamed in 1.37): runs the payload validation only when the struct's discriminator has the given value; in other modes the field must be unset.", stability: Alpha, scopes: &[Field], args: &["<value> (positional) or value (string): the discriminator value", "discriminator (string): the discriminator group, when there are several"], payload: "<validation-tag>: the rule for that value", example: "type Spec struct {\n\t// +k8s:discriminator\n\tType string `json:\"type\"`\n\n\t// +k8s:member(\"Limited\")=+k8s:required\n\tLimited *Limits `json:\"limited,omitempty\"`\n}\n\ntype Limits struct {\n\tShares int32 `json:\"shares\"`\n}" },
    TagDoc { name: "k8s:minItems", description: "The list must have at least N items.", stability: Stable, scopes: &[Type, Field, ListVal], args: &[], payload: "<non-negative integer>: the minimum", example: "// +k8s:minItems=1\nArgs []string `json:\"args\"`" },
    TagDoc { name: "k8s:minLength", description: "The string must be at least N characters long (Unicode code points).", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<integer>: the minimum in characters", example: "// +k8s:minLength=1\nName string `json:\"name\"`" },
    TagDoc { name: "k8s:minProperties", description: "The map must have at least N entries.", stability: Stable, scopes: &[Type, Field], args: &[], payload: "<non-negative integer>: the minimum (at most 100000)", example: "// +k8s:minProperties=1\nSelector map[string]string `json:\"selector\"`" },
    TagDoc { name: "k8s:minimum", description: "The integer must be greater than or equal to N.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "<integer>: the minimum", example: "// +k8s:minimum=0\nReplicas int32 `json:\"replicas\"`" },
    TagDoc { name: "k8s:modeDiscriminator", description: "Marks the field whose value selects which +k8s:ifMode validations apply to its sibling fields.", stability: Stable, scopes: &[Field], args: &["modality (string): the discriminator group, when there are several"], payload: "", example: "// +k8s:modeDiscriminator\nMode string `json:\"mode\"`" },
    TagDoc { name: "k8s:monotonic", description: "On update, the integer may not decrease.", stability: Alpha, scopes: &[Type, Field], args: &[], payload: "", example: "// +k8s:monotonic\nObservedGeneration *int64 `json:\"observedGeneration\"`" },
    TagDoc { name: "k8s:neq", description: "The value must not equal the given string, integer or boolean.", stability: Alpha, scopes: VALUE_SCOPES, args: &[], payload: "<string | integer | bool>: the disallowed value", example: "// +k8s:neq=\"default\"\nName string `json:\"name\"`" },
    TagDoc { name: "k8s:opaqueType", description: "Skips every validation declared on the field's type; required for types from packages the generator does not read.", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "", example: "// +k8s:opaqueType\nTemplate external.PodTemplateSpec `json:\"template\"`" },
    TagDoc { name: "k8s:optional", description: "The field may be omitted; when it is unset (zero, nil or empty) the field's other validations are skipped.", stability: Stable, scopes: &[Field], args: &[], payload: "", example: "// +k8s:optional\nDescription string `json:\"description,omitempty\"`" },
    TagDoc { name: "k8s:required", description: "The field must be set (not zero, nil or empty); when it is not, its other validations are skipped.", stability: Stable, scopes: &[Field], args: &[], payload: "", example: "// +k8s:required\nName string `json:\"name\"`" },
    TagDoc { name: "k8s:subfield", description: "Applies the payload validation to the named field of this struct field (or of a struct embedded in it).", stability: Stable, scopes: VALUE_SCOPES, args: &["<json name> (positional): the subfield"], payload: "<validation-tag>: the rule for the subfield", example: "type Widget struct {\n\t// +k8s:subfield(name)=+k8s:required\n\tMetadata Meta `json:\"metadata\"`\n}\n\ntype Meta struct {\n\tName string `json:\"name\"`\n}" },
    TagDoc { name: "k8s:supportsSubresource", description: "Declares a subresource (\"/status\", \"/scale\") that the generated validation dispatcher accepts for this root type; repeat for several.", stability: Metadata, scopes: &[Type], args: &[], payload: "<path>: the subresource", example: "// +k8s:supportsSubresource=\"/status\"\ntype Widget struct {\n\t// +k8s:required\n\tName string `json:\"name\"`\n}" },
    TagDoc { name: "k8s:unionDiscriminator", description: "Marks the field whose value names the one union member that must be set.", stability: Beta, scopes: &[Field, ListVal], args: &["union (string): the union's name, when there are several"], payload: "", example: "type Source struct {\n\t// +k8s:unionDiscriminator\n\tType string `json:\"type\"`\n\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tGit *GitSource `json:\"git,omitempty\"`\n}\n\ntype GitSource struct {\n\tURL string `json:\"url\"`\n}" },
    TagDoc { name: "k8s:unionMember", description: "Marks a field as a member of a union: exactly one member may be set (or the one the discriminator names).", stability: Stable, scopes: &[Field, ListVal], args: &["union (string): the union's name", "memberName (string): the discriminator value for this member"], payload: "", example: "type Source struct {\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tGit *GitSource `json:\"git,omitempty\"`\n\n\t// +k8s:unionMember\n\t// +k8s:optional\n\tImage *ImageSource `json:\"image,omitempty\"`\n}\n\ntype GitSource struct {\n\tURL string `json:\"url\"`\n}\n\ntype ImageSource struct {\n\tRef string `json:\"ref\"`\n}" },
    TagDoc { name: "k8s:unique", description: "Declares how list items are unique, also for atomic lists: set (whole values) or map (the +k8s:listMapKey fields).", stability: Stable, scopes: VALUE_SCOPES, args: &[], payload: "set | map", example: "type Service struct {\n\t// +k8s:listType=atomic\n\t// +k8s:unique=map\n\t// +k8s:listMapKey=name\n\tPorts []Port `json:\"ports\"`\n}\n\ntype Port struct {\n\tName string `json:\"name\"`\n\tPort int32  `json:\"port\"`\n}" },
    TagDoc { name: "k8s:update", description: "Restricts updates: NoSet (unset to set), NoUnset (set to unset), NoModify (changing a set value), NoAddItem and NoRemoveItem (lists and maps); repeat the tag to combine.", stability: Stable, scopes: &[Field, ListVal], args: &[], payload: "NoSet | NoUnset | NoModify | NoAddItem | NoRemoveItem", example: "// +k8s:update=NoModify\n// +k8s:update=NoUnset\nToken *string `json:\"token,omitempty\"`" },
    TagDoc { name: "k8s:validateError", description: "Test tag: always fails generation with the given message.", stability: Alpha, scopes: VALUE_SCOPES, args: &[], payload: "<string>: the message", example: "// +k8s:validateError=\"not yet\"" },
    TagDoc { name: "k8s:validateFalse", description: "Test tag: always fails validation with \"forced failure: <payload>\".", stability: Alpha, scopes: VALUE_SCOPES, args: &["flags (string): ShortCircuit and/or NonError, comma-separated", "typeArg (string): the generated type argument", "cohort (string): a group name"], payload: "<string>: included in the message", example: "// +k8s:validateFalse=\"field Widget.Name\"" },
    TagDoc { name: "k8s:validateTrue", description: "Test tag: always passes validation.", stability: Alpha, scopes: VALUE_SCOPES, args: &["flags (string)", "typeArg (string)", "cohort (string)"], payload: "<string>", example: "// +k8s:validateTrue" },
    TagDoc { name: "k8s:validateTrueAlpha", description: "Test tag: always passes validation, as an alpha validator.", stability: Alpha, scopes: VALUE_SCOPES, args: &["flags (string)", "typeArg (string)", "cohort (string)"], payload: "<string>", example: "// +k8s:validateTrueAlpha" },
    TagDoc { name: "k8s:validateTrueBeta", description: "Test tag: always passes validation, as a beta validator.", stability: Beta, scopes: VALUE_SCOPES, args: &["flags (string)", "typeArg (string)", "cohort (string)"], payload: "<string>", example: "// +k8s:validateTrueBeta" },
    TagDoc { name: "k8s:zeroOrOneOfMember", description: "Marks a member of a zero-or-one-of union: at most one member may be set (none is fine); meant for list items via +k8s:item.", stability: Stable, scopes: &[Field, ListVal], args: &["union (string): the union's name", "memberName (string): the member's name"], payload: "", example: "// +k8s:item(type: \"Approved\")=+k8s:zeroOrOneOfMember" },
}

/// The documentation of a tag, by name with or without `+` (`k8s:minimum`, `+k8s:minimum`,
/// `minimum`).
pub fn lookup(name: &str) -> Option<&'static TagDoc> {
    let name = name.trim_start_matches('+');
    TAGS.iter().find(|t| t.name == name || t.name.strip_prefix("k8s:") == Some(name))
}

/// The compiler's view of a tag, by its exact name (`k8s:minimum`).
pub fn spec(name: &str) -> Option<&'static TagSpec> {
    SPECS.iter().find(|t| t.name == name)
}

/// Whether validation-gen reads the tag (`k8s:minimum`); it ignores every other comment tag.
pub fn is_registered(name: &str) -> bool {
    spec(name).is_some()
}

/// The known tag whose name is closest to `name` (for "did you mean" hints).
pub fn closest(name: &str) -> Option<&'static str> {
    let want = name.trim_start_matches('+').trim_start_matches("k8s:").to_ascii_lowercase();
    SPECS
        .iter()
        .map(|t| (edit_distance(&want, &t.name["k8s:".len()..].to_ascii_lowercase()), t.name))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: alloc::vec::Vec<char> = b.chars().collect();
    let mut row: alloc::vec::Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
