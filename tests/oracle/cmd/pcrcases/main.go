// Command pcrcases writes tests/oracle/cases/builtin/podcertificaterequest.yaml: PodCertificate
// Requests as kubelet makes them (pkg/kubelet/podcertificate: a key pair, then either the
// public key with a proof of possession — the pod UID signed — or a stub PKCS#10 request signed
// with the key), each key type and size the API server's validation distinguishes, and the
// ways a request goes wrong. Keys come from crypto/rand: each run writes other bytes, the same
// cases. Run from tests/oracle: go run ./cmd/pcrcases > cases/builtin/podcertificaterequest.yaml
package main

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"strings"
)

const podUID = "2c6a1f6e-7a4b-4c55-9d1e-0f3b8f1d9a10"

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// pop signs the pod UID as kubelet does: Ed25519 over the bytes, ECDSA (ASN.1) and RSA-PSS
// over their SHA-256.
func pop(key crypto.Signer, uid string) []byte {
	switch key.(type) {
	case ed25519.PrivateKey:
		return must(key.Sign(rand.Reader, []byte(uid), crypto.Hash(0)))
	case *rsa.PrivateKey:
		h := sha256.Sum256([]byte(uid))
		return must(key.Sign(rand.Reader, h[:], &rsa.PSSOptions{Hash: crypto.SHA256}))
	default:
		h := sha256.Sum256([]byte(uid))
		return must(key.Sign(rand.Reader, h[:], crypto.SHA256))
	}
}

func pkixOf(key crypto.Signer) []byte { return must(x509.MarshalPKIXPublicKey(key.Public())) }

func csrOf(key crypto.Signer) []byte {
	return must(x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key))
}

type spec struct {
	name, signer, podName, podUID, sa, saUID, node, nodeUID string
	maxExpiration                                           string
	pkix, pop, stub                                         []byte
	extra                                                   string
	version                                                 string
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func (s spec) yaml() string {
	var b strings.Builder
	version := s.version
	if version == "" {
		version = "v1"
	}
	fmt.Fprintf(&b, "apiVersion: certificates.k8s.io/%s\nkind: PodCertificateRequest\nmetadata:\n  name: %s\n  namespace: default\nspec:\n", version, s.name)
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "  %s: %s\n", k, v)
		}
	}
	field("signerName", s.signer)
	field("podName", s.podName)
	field("podUID", s.podUID)
	field("serviceAccountName", s.sa)
	field("serviceAccountUID", s.saUID)
	field("nodeName", s.node)
	field("nodeUID", s.nodeUID)
	field("maxExpirationSeconds", s.maxExpiration)
	if s.pkix != nil {
		field("pkixPublicKey", b64(s.pkix))
	}
	if s.pop != nil {
		field("proofOfPossession", b64(s.pop))
	}
	if s.stub != nil {
		field("stubPKCS10Request", b64(s.stub))
	}
	b.WriteString(s.extra)
	return b.String()
}

func main() {
	ed := must(func() (ed25519.PrivateKey, error) { _, k, err := ed25519.GenerateKey(rand.Reader); return k, err }())
	p224 := must(ecdsa.GenerateKey(elliptic.P224(), rand.Reader))
	p256 := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	p384 := must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader))
	p521 := must(ecdsa.GenerateKey(elliptic.P521(), rand.Reader))
	rsa2048 := must(rsa.GenerateKey(rand.Reader, 2048))
	rsa3072 := must(rsa.GenerateKey(rand.Reader, 3072))
	rsa4096 := must(rsa.GenerateKey(rand.Reader, 4096))
	ed2 := must(func() (ed25519.PrivateKey, error) { _, k, err := ed25519.GenerateKey(rand.Reader); return k, err }())
	x25519 := must(ecdh.X25519().GenerateKey(rand.Reader))
	base := spec{
		signer: "example.com/workload-identity", podName: "web-0", podUID: podUID,
		sa: "web", saUID: "0d4d3d1a-9b7e-4f55-8f0c-3b1c2d4e5f60", node: "node-1",
		nodeUID: "7f9e8d7c-6b5a-4938-8271-605f4e3d2c1b", maxExpiration: "86400",
	}
	with := func(name string, f func(*spec)) spec { s := base; s.name = name; f(&s); return s }
	// The public key and its proof are v1beta1's fields (v1 has the stub request only).
	popOf := func(k crypto.Signer) func(*spec) {
		return func(s *spec) { s.pkix, s.pop, s.version = pkixOf(k), pop(k, podUID), "v1beta1" }
	}
	stubOf := func(k crypto.Signer) func(*spec) { return func(s *spec) { s.stub = csrOf(k) } }
	wrongCSR := csrOf(p256)
	wrongCSR[len(wrongCSR)-3] ^= 0x55
	cases := []spec{
		with("pop-ed25519", popOf(ed)),
		with("pop-p256", popOf(p256)),
		with("pop-p384", popOf(p384)),
		with("pop-p521", popOf(p521)),
		with("pop-rsa3072", popOf(rsa3072)),
		with("pop-rsa4096", popOf(rsa4096)),
		with("pop-rsa2048", popOf(rsa2048)),
		with("pop-other-key", func(s *spec) { popOf(ed)(s); s.pop = pop(ed2, podUID) }),
		with("pop-proof-too-long", func(s *spec) { popOf(ed)(s); s.pop = make([]byte, 10241) }),
		with("pop-p224", popOf(p224)),
		with("pop-other-uid", func(s *spec) { popOf(ed)(s); s.pop = pop(ed, "another-uid") }),
		with("pop-p256-other-uid", func(s *spec) { popOf(p256)(s); s.pop = pop(p256, "another-uid") }),
		with("pop-rsa-other-uid", func(s *spec) { popOf(rsa3072)(s); s.pop = pop(rsa3072, "another-uid") }),
		with("pop-key-mismatch", func(s *spec) { popOf(p256)(s); s.pkix = pkixOf(p384) }),
		with("pop-garbage-key", func(s *spec) { popOf(ed)(s); s.pkix = []byte("hello") }),
		with("pop-x25519", func(s *spec) { popOf(ed)(s); s.pkix = must(x509.MarshalPKIXPublicKey(x25519.PublicKey())) }),
		with("pop-too-long", func(s *spec) { popOf(ed)(s); s.pkix = make([]byte, 10241) }),
		with("stub-ed25519", stubOf(ed)),
		with("stub-p256", stubOf(p256)),
		with("stub-p521", stubOf(p521)),
		with("stub-rsa3072", stubOf(rsa3072)),
		with("stub-rsa2048", stubOf(rsa2048)),
		with("stub-p224", stubOf(p224)),
		with("stub-bad-signature", func(s *spec) { s.stub = wrongCSR }),
		with("stub-garbage", func(s *spec) { s.stub = []byte("not a CSR") }),
		with("stub-and-pop", func(s *spec) { popOf(ed)(s); s.stub = csrOf(ed) }),
		with("neither", func(s *spec) {}),
		with("neither-v1beta1", func(s *spec) { s.version = "v1beta1" }),
		with("pop-without-key", func(s *spec) { popOf(ed)(s); s.pkix = nil }),
		with("stub-p256-v1beta1", func(s *spec) { stubOf(p256)(s); s.version = "v1beta1" }),
		with("kubernetes-signer-too-long", func(s *spec) {
			stubOf(ed)(s)
			s.signer, s.maxExpiration = "kubernetes.io/kube-apiserver-client-pod", "86401"
		}),
		with("expiration-too-short", func(s *spec) { stubOf(ed)(s); s.maxExpiration = "3599" }),
		with("expiration-longest", func(s *spec) { stubOf(ed)(s); s.maxExpiration = "7862400" }),
		with("expiration-too-long", func(s *spec) { stubOf(ed)(s); s.maxExpiration = "7862401" }),
		with("identity-mistakes", func(s *spec) {
			stubOf(ed)(s)
			s.signer, s.podName, s.podUID, s.sa, s.saUID, s.node, s.nodeUID = "nodomain", "Web_0", "", "web/1", "", "Node 1", strings.Repeat("u", 129)
		}),
		with("user-annotations", func(s *spec) {
			stubOf(ed)(s)
			s.extra = "  unverifiedUserAnnotations:\n    example.com/team: payments\n    NoDomain: \"x\"\n    Example.COM/Upper: \"y\"\n"
		}),
		with("user-annotations-prefix-too-long", func(s *spec) {
			stubOf(ed)(s)
			s.extra = "  unverifiedUserAnnotations:\n    " + strings.Repeat("a", 254) + ".com/key: \"v\"\n"
		}),
		with("user-annotations-too-large", func(s *spec) {
			stubOf(ed)(s)
			s.extra = "  unverifiedUserAnnotations:\n    example.com/big: \"" + strings.Repeat("v", 256*1024) + "\"\n"
		}),
		with("status-ignored", func(s *spec) {
			stubOf(ed)(s)
			s.extra = "status:\n  certificateChain: not-a-chain\n  conditions:\n  - type: Issued\n    status: \"True\"\n    reason: R\n    message: m\n    lastTransitionTime: \"2026-01-01T00:00:00Z\"\n"
		}),
		with("stub-ed25519-default-expiration", func(s *spec) { stubOf(ed)(s); s.maxExpiration = "" }),
	}
	for i, c := range cases {
		if i > 0 {
			fmt.Println("---")
		}
		fmt.Print(c.yaml())
	}
}
