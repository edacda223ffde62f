//go:build tools

// The programs the oracle builds from the module proxy, pinned by this module's go.sum.
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/code-generator/cmd/validation-gen"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
