package main

// kubectl's reading of a manifest file: cli-runtime v0.37.2's StreamVisitor
// (pkg/resource/visitor.go) decodes the file with apimachinery's YAMLOrJSONDecoder (buffer 4096)
// into RawExtensions, trims each, skips empty and `null` documents, and stops at the first
// error ("error parsing FILE: ..."); each document's JSON is what kubectl sends.
//
// A case: {"id": ..., "text": "..."}. The answer: {"documents": [JSON...], "error": "..."|null}:
// the documents read before the first error, then the error (null when the whole text read).

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/yaml"
)

func yamlCase(raw json.RawMessage) (map[string]any, error) {
	var c struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	docs := []json.RawMessage{}
	d := yaml.NewYAMLOrJSONDecoder(strings.NewReader(c.Text), 4096)
	for {
		ext := runtime.RawExtension{}
		if err := d.Decode(&ext); err != nil {
			if err == io.EOF {
				return map[string]any{"documents": docs, "error": nil}, nil
			}
			return map[string]any{"documents": docs, "error": err.Error()}, nil
		}
		ext.Raw = bytes.TrimSpace(ext.Raw)
		if len(ext.Raw) == 0 || bytes.Equal(ext.Raw, []byte("null")) {
			continue
		}
		docs = append(docs, json.RawMessage(ext.Raw))
	}
}
