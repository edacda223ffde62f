//! The apimachinery types that k8s.io/api types embed, as Go declarations kubedv compiles like
//! any imported package when the user does not give that package's source. They carry each
//! type's JSON shape (field names, `omitempty`, nesting) so tags on fields of these types (a
//! `+k8s:listMapKey=type` on `[]metav1.Condition`, a `+k8s:subfield(name)` on `metadata`) see
//! the fields the generated code sees. Types the Go code marshals as strings or numbers
//! (`Time`, `Duration`, `Quantity`, `IntOrString`) are opaque here, as are the names not
//! declared below.
//!
//! The declarations are kubedv's own transcription of the public API shape (field names and
//! JSON tags) and of the `+k8s:` tags apimachinery carries, without comments or code.
//! Before Kubernetes 1.37 meta/v1 had no validation tags (apimachinery v0.36.3); 1.37 added
//! alpha ones (v0.37.0-beta.0 `pkg/apis/meta/v1/types.go`, generated into
//! `pkg/apis/meta/v1/validation`), which the generated code of every API type chains into.

use alloc::string::String;

/// The prelude packages for Kubernetes 1.`minor`: import path and Go source.
pub(crate) fn packages(minor: u32) -> [(&'static str, String); 1] {
    let meta = if minor >= 37 {
        META_V1.into()
    } else {
        // The same shapes without the tags 1.37 added.
        META_V1.lines().filter(|l| !l.contains("+k8s:")).flat_map(|l| [l, "\n"]).collect()
    };
    [("k8s.io/apimachinery/pkg/apis/meta/v1", meta)]
}

/// meta/v1 as of 1.37, with apimachinery's alpha validation tags.
const META_V1: &str = r#"package v1

import "k8s.io/apimachinery/pkg/types"

type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type ListMeta struct {
	SelfLink           string `json:"selfLink,omitempty"`
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

type ObjectMeta struct {
	Name         string `json:"name,omitempty"`
	GenerateName string `json:"generateName,omitempty"`
	Namespace    string `json:"namespace,omitempty"`
	SelfLink     string `json:"selfLink,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:immutable
	UID             types.UID `json:"uid,omitempty"`
	ResourceVersion string    `json:"resourceVersion,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:minimum=0
	Generation int64 `json:"generation,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:immutable
	CreationTimestamp Time `json:"creationTimestamp,omitempty,omitzero"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:immutable
	DeletionTimestamp *Time `json:"deletionTimestamp,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:immutable
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty"`
	Finalizers      []string         `json:"finalizers,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	ManagedFields []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

type OwnerReference struct {
	// +k8s:alpha(since: "1.37")=+k8s:required
	APIVersion string `json:"apiVersion"`
	// +k8s:alpha(since: "1.37")=+k8s:required
	Kind string `json:"kind"`
	// +k8s:alpha(since: "1.37")=+k8s:required
	Name string `json:"name"`
	// +k8s:alpha(since: "1.37")=+k8s:required
	UID                types.UID `json:"uid"`
	Controller         *bool     `json:"controller,omitempty"`
	BlockOwnerDeletion *bool     `json:"blockOwnerDeletion,omitempty"`
}

type ManagedFieldsEntry struct {
	Manager string `json:"manager,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:required
	Operation   ManagedFieldsOperationType `json:"operation,omitempty"`
	APIVersion  string                     `json:"apiVersion,omitempty"`
	Time        *Time                      `json:"time,omitempty"`
	FieldsType  string                     `json:"fieldsType,omitempty"`
	FieldsV1    *FieldsV1                  `json:"fieldsV1,omitempty"`
	Subresource string                     `json:"subresource,omitempty"`
}

// +k8s:alpha(since: "1.37")=+k8s:enum
type ManagedFieldsOperationType string

const (
	ManagedFieldsOperationApply  ManagedFieldsOperationType = "Apply"
	ManagedFieldsOperationUpdate ManagedFieldsOperationType = "Update"
)

// +k8s:alpha(since: "1.37")=+k8s:enum
type ConditionStatus string

// StatusReason: why a request failed (admission policies' validations name one).
type StatusReason string

const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

type Condition struct {
	// +k8s:alpha(since: "1.37")=+k8s:required
	Type string `json:"type"`
	// +k8s:alpha(since: "1.37")=+k8s:required
	Status ConditionStatus `json:"status"`
	// +k8s:alpha(since: "1.37")=+k8s:optional
	// +k8s:alpha(since: "1.37")=+k8s:minimum=0
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +k8s:alpha(since: "1.37")=+k8s:customValidation
	LastTransitionTime Time `json:"lastTransitionTime"`
	// +k8s:alpha(since: "1.37")=+k8s:required
	// +k8s:alpha(since: "1.37")=+k8s:maxBytes=1024
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

type LabelSelectorOperator string

type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}

type FieldSelectorOperator string

type FieldSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator FieldSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}

type GroupResource struct {
	Group    string `json:"group"`
	Resource string `json:"resource"`
}

type Time interface{}

type MicroTime interface{}

type Duration interface{}

type FieldsV1 interface{}
"#;
