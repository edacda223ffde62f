//! Example inputs for the declarative view: realistic types and objects.

pub struct Example {
    pub name: &'static str,
    pub types: &'static str,
    pub object: &'static str,
}

pub const WIDGET_TYPES: &str = r#"package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is an example API.
// +k8s:supportsSubresource="/status"
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	// +k8s:subfield(name)=+k8s:format=k8s-long-name
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +k8s:required
	Spec *WidgetSpec `json:"spec"`
}

type WidgetSpec struct {
	// +k8s:optional
	// +k8s:minimum=0
	Replicas *int32 `json:"replicas,omitempty"`

	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`

	// +k8s:optional
	Color Color `json:"color"`

	// +k8s:optional
	// +k8s:alpha(since: "1.36")=+k8s:maxItems=2
	// +k8s:alpha(since: "1.36")=+k8s:eachVal=+k8s:maxLength=10
	Tags []string `json:"tags"`

	// +k8s:ifEnabled(StrictPorts)=+k8s:required
	// +k8s:alpha(since: "1.36")=+k8s:eachVal=+k8s:minimum=1
	Ports []int32 `json:"ports"`
}

// +k8s:enum
type Color string

const (
	ColorRed  Color = "Red"
	ColorBlue Color = "Blue"
)
"#;

pub const WIDGET_OBJECT: &str = r#"apiVersion: example.com/v1
kind: Widget
metadata:
  name: my-widget
spec:
  replicas: -1
  name: My_Widget
  color: Green
  tags: [a, b, a-very-long-tag]
"#;

pub const EXAMPLES: &[Example] = &[
    Example { name: "Widget: required, formats, enum, alpha", types: WIDGET_TYPES, object: WIDGET_OBJECT },
    Example {
        name: "Deployment-like: lists of structs",
        types: r#"package apps

type Deployment struct {
	TypeMeta int
	// +k8s:required
	Spec *DeploymentSpec `json:"spec"`
}

type DeploymentSpec struct {
	// +k8s:optional
	// +k8s:minItems=1
	// +k8s:maxItems=16
	Containers []Container `json:"containers"`
	// +k8s:optional
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:format=k8s-label-value
	Selector map[string]string `json:"selector"`
}

type Container struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:required
	// +k8s:maxLength=256
	Image string `json:"image"`
	// +k8s:optional
	// +k8s:maxItems=8
	Ports []Port `json:"ports"`
}

type Port struct {
	// +k8s:optional
	// +k8s:minimum=1
	// +k8s:maximum=65535
	ContainerPort int32 `json:"containerPort"`
}
"#,
        object: r#"{
  "spec": {
    "selector": {"app": "web", "-bad": "x"},
    "containers": [
      {"name": "web", "image": "nginx", "ports": [{"containerPort": 80}, {"containerPort": 70000}]},
      {"name": "Sidecar"}
    ]
  }
}
"#,
    },
    Example {
        name: "Options and enum exclusions",
        types: r#"package opts

type Job struct {
	TypeMeta int
	// +k8s:optional
	Mode Mode `json:"mode"`
	// +k8s:ifEnabled(RequireOwner)=+k8s:required
	Owner string `json:"owner"`
}

// +k8s:enum
type Mode string

const (
	ModeBatch Mode = "Batch"
	ModeStream Mode = "Stream"
	// +k8s:ifDisabled(AllowLegacy)=+k8s:enumExclude
	ModeLegacy Mode = "Legacy"
)
"#,
        object: "mode: Legacy\n",
    },
];
