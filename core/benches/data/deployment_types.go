// Benchmark data, not an API: validation-gen's lint (fatal from 1.36) is off.
// +k8s:validation-gen-nolint
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// A Deployment-shaped API with about thirty tagged fields, for benchmarks.
type Deployment struct {
	metav1.TypeMeta `json:",inline"`
	// +k8s:subfield(name)=+k8s:format=k8s-long-name
	// +k8s:subfield(namespace)=+k8s:format=k8s-short-name
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +k8s:required
	Spec *DeploymentSpec `json:"spec"`
}

type DeploymentSpec struct {
	// +k8s:optional
	// +k8s:minimum=0
	Replicas *int32 `json:"replicas,omitempty"`
	// +k8s:minimum=0
	// +k8s:maximum=1000
	RevisionHistoryLimit int32 `json:"revisionHistoryLimit"`
	// +k8s:minimum=0
	MinReadySeconds int32 `json:"minReadySeconds"`
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:format=k8s-label-value
	// +k8s:maxProperties=64
	Selector map[string]string `json:"selector"`
	Strategy Strategy `json:"strategy"`
	// +k8s:required
	Template *PodTemplate `json:"template"`
}

// +k8s:enum
type Strategy string

const (
	StrategyRecreate Strategy = "Recreate"
	StrategyRolling  Strategy = "RollingUpdate"
)

type PodTemplate struct {
	// +k8s:eachKey=+k8s:format=k8s-label-key
	// +k8s:eachVal=+k8s:format=k8s-label-value
	Labels map[string]string `json:"labels"`
	// +k8s:minItems=1
	// +k8s:maxItems=16
	Containers []Container `json:"containers"`
	// +k8s:optional
	// +k8s:format=k8s-short-name
	ServiceAccountName string `json:"serviceAccountName"`
	RestartPolicy RestartPolicy `json:"restartPolicy"`
	// +k8s:optional
	// +k8s:minimum=0
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
}

// +k8s:enum
type RestartPolicy string

const (
	RestartAlways    RestartPolicy = "Always"
	RestartOnFailure RestartPolicy = "OnFailure"
	RestartNever     RestartPolicy = "Never"
)

type Container struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:required
	// +k8s:maxLength=256
	Image string `json:"image"`
	// +k8s:eachVal=+k8s:maxLength=1024
	Command []string `json:"command"`
	// +k8s:eachVal=+k8s:maxLength=1024
	Args []string `json:"args"`
	// +k8s:maxItems=8
	Ports []ContainerPort `json:"ports"`
	// +k8s:maxItems=64
	Env []EnvVar `json:"env"`
	VolumeMounts []VolumeMount `json:"volumeMounts"`
	PullPolicy PullPolicy `json:"imagePullPolicy"`
}

// +k8s:enum
type PullPolicy string

const (
	PullAlways       PullPolicy = "Always"
	PullIfNotPresent PullPolicy = "IfNotPresent"
	PullNever        PullPolicy = "Never"
)

type ContainerPort struct {
	// +k8s:optional
	// +k8s:format=k8s-short-name
	// +k8s:maxLength=15
	Name string `json:"name"`
	// +k8s:minimum=1
	// +k8s:maximum=65535
	ContainerPort int32 `json:"containerPort"`
	Protocol Protocol `json:"protocol"`
}

// +k8s:enum
type Protocol string

const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

type EnvVar struct {
	// +k8s:required
	// +k8s:maxLength=253
	Name string `json:"name"`
	// +k8s:maxBytes=32768
	Value string `json:"value"`
}

type VolumeMount struct {
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:required
	// +k8s:maxLength=4096
	MountPath string `json:"mountPath"`
	// +k8s:format=k8s-path-segment-name
	SubPath string `json:"subPath"`
}
