package v1

// Thing is an example API type with an immutable field and a bound.
type Thing struct {
	TypeMeta int
	// +k8s:optional
	// +k8s:immutable
	Class string `json:"class"`
	// +k8s:optional
	// +k8s:minimum=1
	Size int `json:"size"`
}
