package main

// The real API server: etcd and kube-apiserver v1.37.2 built from the module proxy, started on
// loopback with a fresh data directory, certificates and keys made at start (as envtest starts
// them), and every case sent as the HTTP request kubectl sends.
//
// A case:
//
//	{"id": "...",
//	 "setup": [object...],          created for real first, in order (CRDs wait until served;
//	                                namespaces are kept); the namespace an object names is
//	                                created when missing
//	 "old": object,                 for an update: created for real, then replaced by "object"
//	 "object": object,              the request's body, sent byte for byte as given
//	 "subresource": "status",       optional
//	 "fieldValidation": "Strict"}   Strict (kubectl's default), Warn or Ignore; default Strict
//
// The request is a server-side dry run. The answer: "status" (the API server's Status: code,
// reason, message, causes) or null when it accepted the request, "warnings" (the Warning
// headers' texts), "object" (what it returned on success, without the fields a run makes up:
// uid, resourceVersion, creationTimestamp, generation, managedFields). When something to create
// first was refused, the request is not sent and the answer is "setupStatus" (the refusal's
// Status) or "setupError" (why, when there was no Status).

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

const token = "kubedv-oracle-token"

// The flags kube-apiserver runs with. Admission: the defaults of 1.37 (ValidatingAdmissionPolicy
// and MutatingAdmissionPolicy among them) except ServiceAccount, which refuses every Pod while no
// controller-manager has made a namespace's default service account; kubedv models no cluster
// state.
func apiserverFlags(dir string, etcdURL string, port int) []string {
	return []string{
		"--advertise-address=127.0.0.1",
		// A loopback address may not be reconciled into the kubernetes Service's endpoints.
		"--endpoint-reconciler-type=none",
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", port),
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--etcd-servers=" + etcdURL,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--allow-privileged=true",
		"--authorization-mode=RBAC",
		"--token-auth-file=" + filepath.Join(dir, "tokens.csv"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file=" + filepath.Join(dir, "sa.key"),
		"--enable-admission-plugins=ValidatingAdmissionPolicy,MutatingAdmissionPolicy",
		"--disable-admission-plugins=ServiceAccount",
		"--runtime-config=api/all=true",
		"--enable-priority-and-fairness=false",
		"--profiling=false",
	}
}

type apiServer struct {
	base   string
	http   *http.Client
	mapper *restmapper.DeferredDiscoveryRESTMapper
	procs  []*proc
	// the data directory (etcd's data, certificates, keys): removed on stop
	dir string
	// namespaces known to exist
	namespaces map[string]bool
	// the resources of the CRDs a case created, so their objects need no discovery
	crdResources map[schema.GroupVersionKind]crdResource
	// the number of the last wait for admission policies (policiesInEffect)
	sentinel int
}

type crdResource struct {
	plural     string
	namespaced bool
}

// proc is a started program and the channel closed when it exits.
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{}
	err    error
}

func start(cmd *exec.Cmd) (*proc, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, exited: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	return p, nil
}

// running fails once the program has exited.
func (p *proc) running() error {
	select {
	case <-p.exited:
		return fmt.Errorf("%s exited (%v); its log says why", filepath.Base(p.cmd.Path), p.err)
	default:
		return nil
	}
}

func runAPIServer(args []string) error {
	fs := flag.NewFlagSet("apiserver", flag.ContinueOnError)
	bin := fs.String("bin", "", "directory holding the etcd and kube-apiserver binaries")
	logFile := fs.String("log", "", "where etcd's and kube-apiserver's output go (default: discarded)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" {
		return errors.New("--bin DIR is required")
	}
	s, err := startAPIServer(*bin, *logFile)
	if s != nil {
		defer s.stop()
	}
	if err != nil {
		return err
	}
	n := 0
	return readCases(os.Stdin, func(id string, raw json.RawMessage) error {
		if n++; n%100 == 0 {
			fmt.Fprintf(os.Stderr, "oracle apiserver: %d cases answered\n", n)
		}
		var c apiCase
		if err := json.Unmarshal(raw, &c); err != nil {
			return fmt.Errorf("case %s: %w", id, err)
		}
		return writeAnswer(id, s.answer(&c))
	})
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startAPIServer(bin, logFile string) (*apiServer, error) {
	dir, err := os.MkdirTemp("", "kubedv-oracle-")
	if err != nil {
		return nil, err
	}
	var out io.Writer = io.Discard
	if logFile != "" {
		f, err := os.Create(logFile)
		if err != nil {
			return nil, err
		}
		out = f
	}
	// Service account signing key and the admin's token, made now.
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"sa.key":     pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		"sa.pub":     pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}),
		"tokens.csv": []byte(token + `,kubedv-oracle,kubedv-oracle,"system:masters"` + "\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return nil, err
		}
	}
	s := &apiServer{dir: dir}
	clientPort, err := freePort()
	if err != nil {
		return s, err
	}
	peerPort, err := freePort()
	if err != nil {
		return s, err
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", clientPort)
	etcd := exec.Command(filepath.Join(bin, "etcd"),
		"--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL,
		"--advertise-client-urls="+etcdURL,
		fmt.Sprintf("--listen-peer-urls=http://127.0.0.1:%d", peerPort),
		fmt.Sprintf("--initial-advertise-peer-urls=http://127.0.0.1:%d", peerPort),
		fmt.Sprintf("--initial-cluster=default=http://127.0.0.1:%d", peerPort),
		"--unsafe-no-fsync=true",
		"--log-level=warn",
	)
	etcd.Stdout, etcd.Stderr = out, out
	etcdProc, err := start(etcd)
	if err != nil {
		return s, fmt.Errorf("starting etcd: %w", err)
	}
	s.procs = append(s.procs, etcdProc)
	if err := waitFor(30*time.Second, func() error {
		if err := etcdProc.running(); err != nil {
			return err
		}
		resp, err := http.Get(etcdURL + "/health")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("etcd /health: %s", resp.Status)
		}
		return nil
	}); err != nil {
		return s, fmt.Errorf("etcd did not start: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return s, err
	}
	api := exec.Command(filepath.Join(bin, "kube-apiserver"), apiserverFlags(dir, etcdURL, port)...)
	api.Stdout, api.Stderr = out, out
	apiProc, err := start(api)
	if err != nil {
		return s, fmt.Errorf("starting kube-apiserver: %w", err)
	}
	s.procs = append(s.procs, apiProc)
	s.base = fmt.Sprintf("https://127.0.0.1:%d", port)
	// The serving certificate is self-signed at start (--cert-dir); the connection is loopback.
	s.http = &http.Client{
		Timeout:   60 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
	}
	if err := waitFor(120*time.Second, func() error {
		if err := apiProc.running(); err != nil {
			return err
		}
		code, body, _, err := s.do("GET", "/readyz", nil)
		if err != nil {
			return err
		}
		if code != 200 {
			return fmt.Errorf("/readyz: %d %s", code, body)
		}
		return nil
	}); err != nil {
		return s, fmt.Errorf("kube-apiserver did not become ready: %w", err)
	}
	cfg := &rest.Config{Host: s.base, BearerToken: token, TLSClientConfig: rest.TLSClientConfig{Insecure: true}, QPS: 1000, Burst: 1000}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return s, err
	}
	s.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	return s, nil
}

func (s *apiServer) stop() {
	for i := len(s.procs) - 1; i >= 0; i-- {
		p := s.procs[i]
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	}
	// Each run's etcd data takes tens of megabytes: nothing of it is kept.
	_ = os.RemoveAll(s.dir)
}

func waitFor(limit time.Duration, try func() error) error {
	deadline := time.Now().Add(limit)
	for {
		err := try()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// do sends one request and returns the status code, the body and the warnings.
func (s *apiServer) do(method, path string, body []byte) (int, []byte, []string, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, s.base+path, reader)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	var warnings []string
	if ws, errs := utilnet.ParseWarningHeaders(resp.Header.Values("Warning")); len(errs) == 0 {
		for _, w := range ws {
			warnings = append(warnings, w.Text)
		}
	}
	return resp.StatusCode, data, warnings, nil
}

type apiCase struct {
	Setup           []json.RawMessage `json:"setup"`
	Old             json.RawMessage   `json:"old"`
	Object          json.RawMessage   `json:"object"`
	Subresource     string            `json:"subresource"`
	FieldValidation string            `json:"fieldValidation"`
}

type objectHead struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// path is the collection path of an object (name empty) or its own path.
func (s *apiServer) path(raw json.RawMessage, withName bool) (string, objectHead, error) {
	var h objectHead
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", h, fmt.Errorf("reading the object's apiVersion, kind and metadata: %w", err)
	}
	gv, err := schema.ParseGroupVersion(h.APIVersion)
	if err != nil {
		return "", h, err
	}
	resource, namespaced := "", false
	if r, ok := s.crdResources[gv.WithKind(h.Kind)]; ok {
		resource, namespaced = r.plural, r.namespaced
	} else {
		mapping, err := s.mapper.RESTMapping(gv.WithKind(h.Kind).GroupKind(), gv.Version)
		if err != nil {
			s.mapper.Reset()
			if mapping, err = s.mapper.RESTMapping(gv.WithKind(h.Kind).GroupKind(), gv.Version); err != nil {
				return "", h, err
			}
		}
		resource, namespaced = mapping.Resource.Resource, mapping.Scope.Name() == meta.RESTScopeNameNamespace
	}
	p := "/apis/" + gv.Group + "/" + gv.Version
	if gv.Group == "" {
		p = "/api/" + gv.Version
	}
	if namespaced {
		ns := h.Metadata.Namespace
		if ns == "" {
			ns = "default"
		}
		if err := s.ensureNamespace(ns); err != nil {
			return "", h, err
		}
		p += "/namespaces/" + url.PathEscape(ns)
	}
	p += "/" + resource
	if withName {
		p += "/" + url.PathEscape(h.Metadata.Name)
	}
	return p, h, nil
}

// ensureNamespace creates a namespace an object names when it does not exist yet: kubedv judges
// documents, not cluster state, so a missing namespace (NamespaceLifecycle's refusal) is never
// the answer. Namespaces are kept: without a controller-manager one never finishes deleting.
func (s *apiServer) ensureNamespace(ns string) error {
	if s.namespaces[ns] {
		return nil
	}
	body, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
	code, data, _, err := s.do("POST", "/api/v1/namespaces", body)
	if err != nil {
		return err
	}
	if code >= 300 && code != http.StatusConflict {
		return fmt.Errorf("creating namespace %s: %s", ns, data)
	}
	if s.namespaces == nil {
		s.namespaces = map[string]bool{}
	}
	s.namespaces[ns] = true
	return nil
}

func (s *apiServer) answer(c *apiCase) map[string]any {
	var cleanup, policies []string
	defer func() {
		// Admission policies and bindings go first, and are waited for until the admission
		// plugins have dropped them, so that they judge nothing else (the deletion of a param,
		// a later case's requests).
		if len(policies) > 0 {
			for i := len(policies) - 1; i >= 0; i-- {
				_, _, _, _ = s.do("DELETE", policies[i], nil)
			}
			if err := s.policiesInEffect(false, nil); err != nil {
				fmt.Fprintln(os.Stderr, "oracle:", err)
			}
		}
		for i := len(cleanup) - 1; i >= 0; i-- {
			_, _, _, _ = s.do("DELETE", cleanup[i], nil)
		}
	}()
	var crd json.RawMessage
	var admission []json.RawMessage
	for _, obj := range c.Setup {
		var h objectHead
		_ = json.Unmarshal(obj, &h)
		if h.Kind == "CustomResourceDefinition" {
			crd = obj
		}
		if admissionPolicyKinds[h.Kind] {
			admission = append(admission, obj)
			continue
		}
		p, err := s.create(obj)
		if p != "" {
			cleanup = append(cleanup, p)
		}
		if err != nil {
			return setupFailure("", err)
		}
	}
	// Admission policies and bindings last, after the old object of an update (below), which
	// was stored before them: they judge the case's request only.
	setupPolicies := func() map[string]any {
		for _, obj := range admission {
			p, err := s.create(obj)
			if p != "" {
				policies = append(policies, p)
			}
			if err != nil {
				return setupFailure("", err)
			}
		}
		if len(admission) > 0 {
			if err := s.policiesInEffect(true, paramKind(admission)); err != nil {
				return map[string]any{"setupError": err.Error()}
			}
		}
		return nil
	}
	query := url.Values{"dryRun": {"All"}}
	fv := c.FieldValidation
	if fv == "" {
		fv = "Strict"
	}
	query.Set("fieldValidation", fv)
	method, body := "POST", []byte(c.Object)
	var p string
	if len(c.Old) > 0 {
		old, err := s.create(c.Old)
		var refused refusal
		if errors.As(err, &refused) && crd != nil {
			// An old object the CRD's schema refuses exists in a cluster when the schema
			// changed after it was stored (what ratcheting is for): store it under a
			// permissive schema, then put the case's schema back.
			old, err = s.createUnderPermissiveSchema(crd, c.Old, refused)
		}
		if old != "" {
			cleanup = append(cleanup, old)
		}
		if err != nil {
			return setupFailure("the old object: ", err)
		}
		// The update carries the stored object's resourceVersion, as kubectl's replace does.
		_, stored, _, err := s.do("GET", old, nil)
		if err != nil {
			return map[string]any{"setupError": err.Error()}
		}
		var meta struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(stored, &meta)
		if body, err = withResourceVersion(c.Object, meta.Metadata.ResourceVersion); err != nil {
			return map[string]any{"setupError": err.Error()}
		}
		method, p = "PUT", old
		if failed := setupPolicies(); failed != nil {
			return failed
		}
	} else {
		if failed := setupPolicies(); failed != nil {
			return failed
		}
		var err error
		if p, _, err = s.path(c.Object, c.Subresource != ""); err != nil {
			return map[string]any{"setupError": "no resource serves the object: " + err.Error()}
		}
	}
	if c.Subresource != "" {
		p += "/" + c.Subresource
	}
	code, data, warnings, err := s.do(method, p+"?"+query.Encode(), body)
	if err != nil {
		return map[string]any{"setupError": err.Error()}
	}
	answer := map[string]any{"warnings": nonNil(warnings), "status": nil}
	if code >= 300 {
		var status map[string]any
		if err := json.Unmarshal(data, &status); err != nil {
			status = map[string]any{"code": code, "message": string(data)}
		}
		delete(status, "metadata")
		answer["status"] = status
	} else {
		var obj map[string]any
		if err := json.Unmarshal(data, &obj); err == nil {
			if m, ok := obj["metadata"].(map[string]any); ok {
				for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"} {
					delete(m, k)
				}
			}
			answer["object"] = obj
		}
	}
	return answer
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func withResourceVersion(obj json.RawMessage, rv string) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	md["resourceVersion"] = rv
	return json.Marshal(m)
}

// refusal is the API server's Status for a request it refused.
type refusal map[string]any

func (r refusal) Error() string { m, _ := r["message"].(string); return m }

// create makes obj for real and returns the path to delete it by ("" for a namespace, which is
// kept: without a controller-manager a namespace never finishes deleting). A CRD is waited for
// until it is established and its resource is served. An object of the same name still being
// deleted (a CRD of an earlier case) is waited for. A refusal is returned as its Status.
func (s *apiServer) create(obj json.RawMessage) (string, error) {
	coll, h, err := s.path(obj, false)
	if err != nil {
		return "", err
	}
	self := coll + "/" + url.PathEscape(h.Metadata.Name)
	if h.Kind == "Namespace" && h.APIVersion == "v1" {
		if code, _, _, err := s.do("GET", self, nil); err == nil && code == 200 {
			return "", nil
		}
	}
	var code int
	var data []byte
	err = waitFor(60*time.Second, func() error {
		var err error
		if code, data, _, err = s.do("POST", coll, obj); err != nil {
			return err
		}
		if code == http.StatusConflict {
			return fmt.Errorf("an object of this name is still being deleted: %s", bytes.TrimSpace(data))
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if code >= 300 {
		var status refusal
		if json.Unmarshal(data, &status) != nil {
			status = refusal{"code": code, "message": string(data)}
		}
		delete(status, "metadata")
		return "", status
	}
	if h.Kind == "CustomResourceDefinition" {
		if err := s.waitForCRD(self, data); err != nil {
			return self, err
		}
	}
	if h.Kind == "Namespace" {
		return "", nil
	}
	return self, nil
}

// createUnderPermissiveSchema stores obj, which the CRD's schema refuses (with refused),
// under a copy of the CRD whose versions keep any object, then restores the CRD and waits
// until its schema refuses obj again (a dry run), so the request that follows meets it.
func (s *apiServer) createUnderPermissiveSchema(crd, obj json.RawMessage, refused refusal) (string, error) {
	var h objectHead
	if err := json.Unmarshal(crd, &h); err != nil {
		return "", err
	}
	self := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + url.PathEscape(h.Metadata.Name)
	replace := func(body json.RawMessage, permissive bool) error {
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			return err
		}
		_, data, _, err := s.do("GET", self, nil)
		if err != nil {
			return err
		}
		var stored map[string]any
		if err := json.Unmarshal(data, &stored); err != nil {
			return err
		}
		md, _ := m["metadata"].(map[string]any)
		md["resourceVersion"] = stored["metadata"].(map[string]any)["resourceVersion"]
		if permissive {
			spec, _ := m["spec"].(map[string]any)
			versions, _ := spec["versions"].([]any)
			for _, v := range versions {
				vm, _ := v.(map[string]any)
				vm["schema"] = map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
			}
		}
		b, _ := json.Marshal(m)
		code, data, _, err := s.do("PUT", self, b)
		if err != nil {
			return err
		}
		if code >= 300 {
			return fmt.Errorf("replacing the CRD: %s", data)
		}
		return nil
	}
	if err := replace(crd, true); err != nil {
		return "", err
	}
	var self2 string
	if err := waitFor(30*time.Second, func() error {
		var err error
		self2, err = s.create(obj)
		return err
	}); err != nil {
		return self2, err
	}
	if err := replace(crd, false); err != nil {
		return self2, err
	}
	coll, _, err := s.path(obj, false)
	if err != nil {
		return self2, err
	}
	want, _ := json.Marshal(refused["details"])
	return self2, waitFor(30*time.Second, func() error {
		code, data, _, err := s.do("POST", coll+"?dryRun=All", obj)
		if err != nil {
			return err
		}
		var st refusal
		_ = json.Unmarshal(data, &st)
		got, _ := json.Marshal(st["details"])
		if code < 300 || !bytes.Equal(got, want) {
			return errors.New("the CRD's schema is not in effect yet")
		}
		return nil
	})
}

// The kinds whose objects the admission plugins read through informers: a case's policies
// take effect asynchronously, a second or so after they are created.
var admissionPolicyKinds = map[string]bool{
	"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
	"MutatingAdmissionPolicy": true, "MutatingAdmissionPolicyBinding": true,
}

// policiesInEffect waits until the admission plugins act on the policies and bindings created
// so far (on) or on none of a case's any more (off). Both plugins rebuild their policies from
// their informers' listers (apiserver pkg/admission/plugin/policy/generic/policy_source.go,
// refreshPolicies, once a second), so a sentinel created after a case's objects is seen only
// with them: a mutating policy that labels the sentinel ConfigMap "kubedv-sentinel" with this
// wait's number and a validating policy bound with the Warn action that reports the label it
// sees. The dry-run probe is in effect when its warning says "seen N" (both plugins have
// every policy created before the sentinel). Off: the case's policies and bindings are deleted
// before the sentinel, which is then deleted too; the plugins have dropped them when the probe
// is allowed, without the sentinel's warning and label.
//
// A policy whose paramKind is a custom resource fails to configure ("failed to find resource
// referenced by paramKind") until the plugins' REST mapper has discovered the CRD (it is reset
// every 30 s: apiserver pkg/server/options/admission.go): the sentinels are given the case's
// first paramKind (paramKind), so they act only once it is found.
func (s *apiServer) policiesInEffect(on bool, paramKind any) error {
	const v1 = "/apis/admissionregistration.k8s.io/v1/"
	s.sentinel++
	n := fmt.Sprint(s.sentinel)
	rules := map[string]any{"resourceRules": []any{map[string]any{"apiGroups": []any{""}, "apiVersions": []any{"v1"},
		"operations": []any{"CREATE"}, "resources": []any{"configmaps"}}}}
	conditions := []any{map[string]any{"name": "sentinel", "expression": "object.metadata.name == 'kubedv-sentinel'"}}
	objects := []struct {
		resource string
		spec     map[string]any
	}{
		{"mutatingadmissionpolicies", map[string]any{"failurePolicy": "Ignore", "matchConstraints": rules,
			"matchConditions": conditions, "reinvocationPolicy": "Never", "mutations": []any{map[string]any{
				"patchType": "ApplyConfiguration", "applyConfiguration": map[string]any{"expression": "Object{metadata: Object.metadata{labels: {'kubedv-sentinel': '" + n + "'}}}"}}}}},
		{"mutatingadmissionpolicybindings", map[string]any{"policyName": "kubedv-sentinel"}},
		{"validatingadmissionpolicies", map[string]any{"failurePolicy": "Ignore", "matchConstraints": rules,
			"matchConditions": conditions, "validations": []any{map[string]any{"expression": "false",
				"messageExpression": "'seen ' + object.metadata.?labels['kubedv-sentinel'].orValue('none')"}}}},
		{"validatingadmissionpolicybindings", map[string]any{"policyName": "kubedv-sentinel", "validationActions": []any{"Warn"}}},
	}
	kinds := map[string]string{"mutatingadmissionpolicies": "MutatingAdmissionPolicy", "mutatingadmissionpolicybindings": "MutatingAdmissionPolicyBinding",
		"validatingadmissionpolicies": "ValidatingAdmissionPolicy", "validatingadmissionpolicybindings": "ValidatingAdmissionPolicyBinding"}
	if on {
		for _, o := range objects {
			if paramKind != nil && (o.resource == "mutatingadmissionpolicies" || o.resource == "validatingadmissionpolicies") {
				o.spec["paramKind"] = paramKind
			}
			body, _ := json.Marshal(map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": kinds[o.resource],
				"metadata": map[string]any{"name": "kubedv-sentinel"}, "spec": o.spec})
			if code, data, _, err := s.do("POST", v1+o.resource, body); err != nil || code >= 300 {
				return fmt.Errorf("creating the sentinel %s: %v %s", o.resource, err, data)
			}
		}
	} else {
		for i := len(objects) - 1; i >= 0; i-- {
			_, _, _, _ = s.do("DELETE", v1+objects[i].resource+"/kubedv-sentinel", nil)
		}
	}
	probe := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kubedv-sentinel","namespace":"default"}}`)
	err := waitFor(60*time.Second, func() error {
		code, data, warnings, err := s.do("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", probe)
		if err != nil {
			return err
		}
		seen := false
		for _, w := range warnings {
			seen = seen || (bytes.Contains([]byte(w), []byte("'kubedv-sentinel'")) && (!on || bytes.HasSuffix([]byte(w), []byte(": seen "+n))))
		}
		switch {
		case on && seen:
			return nil
		case !on && !seen && code < 300 && !bytes.Contains(data, []byte(`"kubedv-sentinel":`)):
			return nil
		}
		return fmt.Errorf("the sentinel probe answered %d %s, warnings %q", code, data, warnings)
	})
	if err != nil {
		state := map[bool]string{true: "take effect", false: "stop acting"}[on]
		return fmt.Errorf("the admission policies did not %s within 60 s: %w", state, err)
	}
	return nil
}

// paramKind is the spec.paramKind of the first admission policy among objects, or nil.
func paramKind(objects []json.RawMessage) any {
	for _, obj := range objects {
		var p struct {
			Kind string `json:"kind"`
			Spec struct {
				ParamKind map[string]any `json:"paramKind"`
			} `json:"spec"`
		}
		if json.Unmarshal(obj, &p) == nil && p.Spec.ParamKind != nil &&
			(p.Kind == "ValidatingAdmissionPolicy" || p.Kind == "MutatingAdmissionPolicy") {
			return p.Spec.ParamKind
		}
	}
	return nil
}

// setupFailure is the answer when something to create first was not: its Status, or why.
func setupFailure(what string, err error) map[string]any {
	var r refusal
	if errors.As(err, &r) {
		return map[string]any{"setupStatus": map[string]any(r)}
	}
	return map[string]any{"setupError": what + err.Error()}
}

func (s *apiServer) waitForCRD(self string, created []byte) error {
	var crd struct {
		Spec struct {
			Group string `json:"group"`
			Scope string `json:"scope"`
			Names struct {
				Kind   string `json:"kind"`
				Plural string `json:"plural"`
			} `json:"names"`
			Versions []struct {
				Name   string `json:"name"`
				Served bool   `json:"served"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(created, &crd); err != nil {
		return err
	}
	if err := waitFor(30*time.Second, func() error {
		_, data, _, err := s.do("GET", self, nil)
		if err != nil {
			return err
		}
		var st struct {
			Status struct {
				Conditions []struct {
					Type   string `json:"type"`
					Status string `json:"status"`
				} `json:"conditions"`
			} `json:"status"`
		}
		_ = json.Unmarshal(data, &st)
		for _, c := range st.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				return nil
			}
		}
		return errors.New("the CRD is not established")
	}); err != nil {
		return err
	}
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		list := "/apis/" + crd.Spec.Group + "/" + v.Name + "/" + crd.Spec.Names.Plural
		if err := waitFor(30*time.Second, func() error {
			code, data, _, err := s.do("GET", list, nil)
			if err != nil {
				return err
			}
			if code != 200 {
				return fmt.Errorf("GET %s: %d %s", list, code, data)
			}
			return nil
		}); err != nil {
			return fmt.Errorf("the CRD's resource is not served: %w", err)
		}
		if s.crdResources == nil {
			s.crdResources = map[schema.GroupVersionKind]crdResource{}
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
		s.crdResources[gvk] = crdResource{plural: crd.Spec.Names.Plural, namespaced: crd.Spec.Scope == "Namespaced"}
	}
	return nil
}
