//! Browser end-to-end tests (run by `cargo xtask test` after the builds).
//!
//! Serves the built playground (`dist/`) and the `www/` page on 127.0.0.1, starts the local
//! chromedriver with headless Chromium, types into the pages and checks what they show.
//! Screenshots go to `target/e2e/`. Prints one line per test and `N passed, M failed`.

mod server;
mod webdriver;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use webdriver::Browser;

/// What the playground must show for `My_Name` as a `k8s-short-name` at `metadata.name`:
/// apimachinery pkg/api/validate/strfmt.go (ShortName) + content/dns.go (IsDNS1123Label).
const SHORT_NAME_ERROR: &str = "metadata.name: Invalid value: \"My_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

struct Config {
    root: PathBuf,
    chromium: String,
    chromedriver: String,
}

fn main() -> ExitCode {
    let root = std::env::var_os("KUBEDV_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root"));
    let config = Config {
        root,
        chromium: std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
        chromedriver: std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into()),
    };
    let shots = config.root.join("target/e2e");
    if let Err(e) = std::fs::create_dir_all(&shots) {
        eprintln!("e2e: cannot create {}: {e}", shots.display());
        return ExitCode::from(2);
    }
    let mut browser = match Browser::start(&config.chromedriver, &config.chromium) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("e2e: cannot start headless Chromium: {e}");
            return ExitCode::from(2);
        }
    };

    type Test = fn(&mut Browser, &Config, &Path) -> Result<(), String>;
    let tests: [(&str, Test); 18] = [
        ("a phone-sized window and the dark scheme", phone_and_dark),
        ("examples gallery opens cases in every view; tag docs try it", gallery),
        ("editors: diagnostics at their lines, tag docs at the caret, errors show their field", editor_lines),
        ("a share link carries the state to a fresh page", share_link),
        ("CRD view: rules, schema errors, transition rules, refused CRDs", crd_view),
        ("CEL view evaluates the example and follows edits", cel_view),
        ("CEL view: examples, transition rules, errors at their position, cost limit", cel_view_examples),
        ("declarative view: update toggle and shadow comparison", declarative_update_and_shadow),
        ("declarative view validates the example as the page loads", declarative_first_result),
        ("declarative view follows edits of the object", declarative_edit),
        ("declarative view: validation options and examples", declarative_options),
        ("declarative view keeps the editors across a reload", declarative_persists),
        ("tag docs search", tag_docs_search),
        (
            "manifests view: a stream checked per document, at its lines, per release, built-in kinds by the catalog",
            manifests_view,
        ),
        ("policies view: the API server's verdict on a request, bindings and mutations", policies_view),
        ("CRI skew view", cri_view),
        ("formats view shows Kubernetes' error for an invalid short name", playground_invalid),
        ("formats view shows a valid value as valid and follows the format picker", playground_valid),
    ];
    // KUBEDV_E2E_ONLY=text runs only the tests whose names contain it (while developing).
    let only = std::env::var("KUBEDV_E2E_ONLY").unwrap_or_default();
    let tests = tests
        .into_iter()
        .chain([("www page runs the npm package in the browser", www_page as Test)])
        .filter(|(name, _)| name.contains(only.as_str()));
    let (mut passed, mut failed) = (0, 0);
    for (name, test) in tests {
        match test(&mut browser, &config, &shots) {
            Ok(()) => {
                passed += 1;
                println!("ok   {name}");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {name}\n     {e}");
            }
        }
    }
    browser.quit();
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// kubedv cel's semantics: cel-go; costs as Kubernetes counts them (celcoststability_test.go).
fn cel_view(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "cel")?;
    browser.wait_for_text("#cel-result", "true", Duration::from_secs(30))?;
    browser.wait_for_text("#cel-type", "type bool (checked: bool)", Duration::from_secs(5))?;
    browser.wait_for_text("#cel-cost", "runtime cost 8 of the 1000000 per-expression limit", Duration::from_secs(5))?;
    browser.wait_for_text(
        "#cel-estimate",
        "estimated cost (Kubernetes, at CRD creation): 8",
        Duration::from_secs(5),
    )?;
    let this = browser.wait_for("#cel-self", Duration::from_secs(5))?;
    browser.replace_text(&this, "replicas: 30\nmaxReplicas: 10\n")?;
    browser.wait_for_text("#cel-value", "false", Duration::from_secs(10))?;
    let expr = browser.wait_for("#cel-expr", Duration::from_secs(5))?;
    browser.replace_text(&expr, "self.replicas + 'x'")?;
    browser.wait_for_text(
        "#cel-error",
        "check error at 1:15: found no matching overload for '_+_' applied to '(int, string)'",
        Duration::from_secs(10),
    )?;
    let result = browser.wait_for_text("#cel-result", "self.replicas + 'x'\n              ^", Duration::from_secs(5));
    browser.screenshot(&shots.join("playground-cel-error.png"))?;
    result
}

fn cel_view_examples(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "cel")?;
    browser.wait_for("#cel-example", Duration::from_secs(30))?;
    // A transition rule: oldSelf bound from its editor.
    browser.select_option("#cel-example", "2")?;
    browser.wait_for_text("#cel-value", "false", Duration::from_secs(10))?;
    // The Kubernetes format library in a message.
    browser.select_option("#cel-example", "5")?;
    browser.wait_for_text(
        "#cel-value",
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters",
        Duration::from_secs(10),
    )?;
    // Over budget: the static estimate refuses it (unbounded list), even though this object is small.
    browser.select_option("#cel-example", "7")?;
    browser.wait_for_text("#cel-estimate", "over the 10,000,000 limit", Duration::from_secs(10))?;
    browser.wait_for_text(
        "#cel-result",
        "x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x",
        Duration::from_secs(5),
    )?;
    let result = browser.wait_for_text("#cel-value", "true", Duration::from_secs(5));
    browser.screenshot(&shots.join("playground-cel.png"))?;
    result
}

/// apiextensions-apiserver: pkg/apiserver/schema/cel/validation.go (rule errors),
/// pkg/registry/customresource/strategy.go (blocking errors), validation.go (cost limit).
fn crd_view(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "crd")?;
    browser.wait_for_text(
        "#crd-result",
        "spec: Invalid value: at least one of commonName or dnsNames must be set",
        Duration::from_secs(30),
    )?;
    browser.wait_for_text(
        "#crd-result",
        "spec.privateKey.size: Invalid value: RSA keys must be 2048, 3072 or 4096 bits, not 1024",
        Duration::from_secs(5),
    )?;
    browser.select_option("#crd-example", "1")?;
    browser.wait_for_text(
        "#crd-result",
        "some validation rules were not checked because the object was invalid",
        Duration::from_secs(10),
    )?;
    browser.select_option("#crd-example", "4")?;
    browser.wait_for_text(
        "#crd-result",
        "spec.selector: Invalid value: selector is immutable",
        Duration::from_secs(10),
    )?;
    browser.screenshot(&shots.join("playground-crd.png"))?;
    browser.select_option("#crd-example", "5")?;
    browser.wait_for_text(
        "#crd-refused",
        "estimated rule cost exceeds budget by factor of more than 100x",
        Duration::from_secs(10),
    )
}

fn share_link(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "cel")?;
    let expr = browser.wait_for("#cel-expr", Duration::from_secs(30))?;
    browser.replace_text(&expr, "self.replicas * 7 == 21")?;
    browser.wait_for_text("#cel-value", "true", Duration::from_secs(10))?;
    std::thread::sleep(Duration::from_millis(400)); // the editor is saved after its debounce
    browser.click("#share")?;
    browser.wait_for("#share-link", Duration::from_secs(5))?;
    let link = browser.property("#share-link", "value")?;
    let link = link.as_str().ok_or("no share link")?;
    let fragment = &link[link.find('#').ok_or("no fragment in the link")?..];
    // A fresh origin: nothing in its localStorage but what the link carries.
    let fresh = serve_playground(config)?;
    browser.goto(&format!("{}{fragment}", fresh.url("/")))?;
    browser.wait_for_text("#cel-result", "true", Duration::from_secs(30))?;
    let shared = browser.property("#cel-expr", "value")?;
    if shared.as_str() != Some("self.replicas * 7 == 21") {
        return Err(format!("the fresh page shows {shared}"));
    }
    browser.screenshot(&shots.join("playground-shared.png"))
}

fn serve_playground(config: &Config) -> Result<server::Server, String> {
    let dist = config.root.join("dist");
    if !dist.join("index.html").is_file() {
        return Err(format!("{} has no built playground: run `trunk build --release` first", dist.display()));
    }
    server::Server::start(dist)
}

/// Opens the playground on a fresh origin (so a fresh localStorage) at a tab.
fn open_tab(browser: &mut Browser, config: &Config, tab: &str) -> Result<server::Server, String> {
    let server = serve_playground(config)?;
    browser.goto(&server.url("/"))?;
    browser.wait_for(&format!("#tab-{tab}"), Duration::from_secs(30))?;
    browser.click(&format!("#tab-{tab}"))?;
    Ok(server)
}

/// apimachinery limits.go (Minimum), strfmt.go (ShortName), enum.go; validation-gen levels.go
/// (alpha rules are shadow-only).
// The alpha maxItems short-circuits the tags field (validation-gen: `MarkAlpha().MarkShortCircuit()`,
// output_tests/tags/levels/simple), so its items' maxLength does not run.
const WIDGET_ERRORS: [&str; 4] = [
    "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
    "spec.name: Invalid value: \"My_Widget\": a lowercase RFC 1123 label",
    "spec.color: Unsupported value: \"Green\": supported values: \"Blue\", \"Red\"",
    "spec.tags: Too many: 3: must have at most 2 items",
];

fn declarative_first_result(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let server = serve_playground(config)?;
    let start = std::time::Instant::now();
    browser.goto(&server.url("/"))?;
    browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(30))?;
    let ms = start.elapsed().as_millis();
    println!("     navigation to first validation result: {ms} ms");
    for e in WIDGET_ERRORS {
        browser.wait_for_text("#decl-result", e, Duration::from_secs(2))?;
    }
    browser.wait_for_text("#decl-result", "3 returned by the API server, 1 shadow-only", Duration::from_secs(2))?;
    browser.screenshot(&shots.join("playground-declarative.png"))
}

/// The selected text of a textarea.
fn selection(browser: &Browser, css: &str) -> Result<String, String> {
    let v = browser.execute(
        "const a = document.querySelector(arguments[0]); return a.value.slice(a.selectionStart, a.selectionEnd);",
        serde_json::json!([css]),
    )?;
    Ok(v.as_str().unwrap_or("").to_string())
}

/// The marked line numbers in the gutter of the editor of textarea `id`.
fn marked_lines(browser: &Browser, id: &str) -> Result<String, String> {
    let v = browser.execute(
        "return [...document.getElementById(arguments[0]).closest('.code').querySelectorAll('.gutter .ln.marked')].map(e => e.textContent).join(',');",
        serde_json::json!([id]),
    )?;
    Ok(v.as_str().unwrap_or("").to_string())
}

fn editor_lines(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "declarative")?;
    browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(30))?;
    // Clicking an error selects its field's line in the object.
    browser.click("#decl-result .errors li:nth-child(2) button.goto")?;
    let selected = selection(browser, "#object")?;
    if selected != "  name: My_Widget" {
        return Err(format!("clicking the spec.name error selected {selected:?}"));
    }
    // A missing required field shows its parent.
    let object = browser.wait_for("#object", Duration::from_secs(5))?;
    browser.replace_text(&object, "metadata:\n  name: w\nspec:\n  color: Red\n")?;
    browser.wait_for_text("#decl-result", "spec.name: Required value", Duration::from_secs(10))?;
    browser.click("#decl-result .errors li:first-child button.goto")?;
    if selection(browser, "#object")? != "spec:" {
        return Err(format!("spec.name (missing) selected {:?}", selection(browser, "#object")?));
    }
    // The documentation of the tag at the caret (moved with the keyboard).
    let types = browser.wait_for("#types", Duration::from_secs(5))?;
    browser.execute(
        "const a = document.getElementById('types'); a.focus(); const i = a.value.indexOf('+k8s:minimum'); a.setSelectionRange(i, i);",
        serde_json::json!([]),
    )?;
    browser.type_text(&types, "\u{E014}")?; // Right arrow
    browser.wait_for_text("#types-tag-doc", "+k8s:minimum", Duration::from_secs(5))?;
    browser.wait_for_text("#types-tag-doc", "stable", Duration::from_secs(5))?;
    // And the tag under the mouse: the middle of "+k8s:required" on its line, from the
    // backdrop's own layout of that text.
    browser.execute(
        "const a = document.getElementById('types'); a.scrollTop = 0; a.scrollIntoView({block: 'center'});",
        serde_json::json!([]),
    )?;
    std::thread::sleep(Duration::from_millis(200));
    let point = browser.execute(
        "const a = document.getElementById('types');
         const tag = '+k8s:required', at = a.value.indexOf(tag);
         const line = a.value.slice(0, at).split('\\n').length - 1;
         const column = at - (a.value.lastIndexOf('\\n', at - 1) + 1);
         const mark = [...a.closest('.layers').querySelectorAll('.backdrop mark')].find(e => e.textContent === tag);
         const charWidth = mark.getBoundingClientRect().width / tag.length;
         const r = a.getBoundingClientRect(), s = getComputedStyle(a);
         return [r.left + parseFloat(s.paddingLeft) + (column + 4.5) * charWidth - a.scrollLeft,
                 r.top + parseFloat(s.paddingTop) + line * 20 + 10 - a.scrollTop];",
        serde_json::json!([]),
    )?;
    let (x, y) = (point[0].as_f64().unwrap_or(0.0), point[1].as_f64().unwrap_or(0.0));
    browser.hover(x, y)?;
    browser.wait_for_text("#types-tag-doc", "+k8s:required", Duration::from_secs(5))?;
    // A diagnostic is marked at its line and links to it (validation-gen: a malformed payload).
    browser.replace_text(
        &types,
        "package v1\n\ntype Widget struct {\n    // +k8s:maxLength=x\n    Name string `json:\"name\"`\n}\n",
    )?;
    browser.wait_for_text(
        "#decl-result",
        "types.go:4:8: error: +k8s:maxLength needs a non-negative integer, e.g. +k8s:maxLength=10",
        Duration::from_secs(10),
    )?;
    let marked = marked_lines(browser, "types")?;
    if marked != "4" {
        return Err(format!("the types gutter marks lines {marked:?}, expected 4"));
    }
    browser.screenshot(&shots.join("playground-diagnostic-line.png"))?;
    browser.click("#decl-result .diag button.goto")?;
    if selection(browser, "#types")? != "    // +k8s:maxLength=x" {
        return Err(format!("the diagnostic selected {:?}", selection(browser, "#types")?));
    }
    // An unreadable object: the parser's position, marked and linked.
    browser.replace_text(&types, "package v1\n\ntype Widget struct {\n    Name string `json:\"name\"`\n}\n")?;
    browser.replace_text(&object, "name: a\nspec: [1,\n")?;
    browser.wait_for_text("#object-error", "invalid YAML", Duration::from_secs(10))?;
    let marked = marked_lines(browser, "object")?;
    if marked != "3" {
        return Err(format!("the object gutter marks lines {marked:?}, expected 3"));
    }
    browser.screenshot(&shots.join("playground-object-error-line.png"))
}

fn phone_and_dark(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "declarative")?;
    browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(30))?;
    browser.set_window_size(390, 844)?;
    browser.color_scheme("dark")?;
    // Load the page in the dark scheme, as a phone set to dark would.
    browser.refresh()?;
    let outcome = (|| {
        browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(30))?;
        // The editors stack, and nothing is wider than the screen.
        let layout = browser.execute(
            "const t = document.getElementById('types').closest('.editor').getBoundingClientRect();
             const o = document.getElementById('object').closest('.editor').getBoundingClientRect();
             return [o.top >= t.bottom, document.documentElement.scrollWidth <= window.innerWidth,
                     getComputedStyle(document.documentElement).backgroundColor];",
            serde_json::json!([]),
        )?;
        if layout[0] != true || layout[1] != true {
            return Err(format!("phone layout: stacked, fits = {layout}"));
        }
        // The dark palette (style.css: --bg #0d1117).
        if layout[2] != "rgb(13, 17, 23)" {
            return Err(format!("the dark scheme's background is {}", layout[2]));
        }
        // Headless Chromium keeps the scrolling editors' first raster across an emulated
        // scheme change; a resize repaints them as a page loaded in dark mode paints.
        browser.set_window_size(391, 844)?;
        browser.set_window_size(390, 844)?;
        browser.screenshot(&shots.join("playground-phone-dark.png"))
    })();
    browser.color_scheme("light")?;
    browser.set_window_size(1200, 900)?;
    outcome
}

fn gallery(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "gallery")?;
    browser.wait_for("#gallery-0", Duration::from_secs(30))?;
    let count = browser.execute("return document.querySelectorAll('.gallery .card').length;", serde_json::json!([]))?;
    if count.as_u64().unwrap_or(0) < 15 {
        return Err(format!("the gallery has {count} cases, expected at least 15"));
    }
    browser.screenshot(&shots.join("playground-gallery.png"))?;
    let open = |browser: &mut Browser, title: &str| -> Result<(), String> {
        browser.click("#tab-gallery")?;
        browser.wait_for("#gallery-0", Duration::from_secs(5))?;
        browser.click(&format!("button[aria-label=\"Open: {title}\"]"))
    };
    // Policies: the Warn + Audit binding (validating/dispatcher.go's warning text).
    open(browser, "Warn + Audit binding with a message expression")?;
    browser.wait_for_text(
        "#policy-result",
        "Warning: Validation failed for ValidatingAdmissionPolicy 'name-suffix' with binding 'name-suffix-warn': name settings must end in -cfg",
        Duration::from_secs(10),
    )?;
    // Declarative, on update: immutable.go; ratcheting of the unchanged sizeGi.
    open(browser, "Update: an immutable field and ratcheting")?;
    browser.wait_for_text(
        "#decl-result",
        "storageClass: Invalid value: null: field is immutable",
        Duration::from_secs(10),
    )?;
    if browser.text("#decl-result")?.contains("sizeGi") {
        return Err("the unchanged sizeGi was reported on update (it ratchets)".into());
    }
    // Shadow comparison (apimachinery pkg/api/validate/errors.go matching).
    open(browser, "Shadow comparison with handwritten validation")?;
    browser.wait_for_text("#shadow-summary", "shadow: 2 matched, 1 unmatched handwritten, 0 extra declarative: the mismatch metric grows by 1; the API server returns 4 error(s)", Duration::from_secs(10))?;
    // CEL: the loaded example is the one the picker shows.
    open(browser, "Resource quantities")?;
    browser.wait_for_text("#cel-value", "true", Duration::from_secs(10))?;
    let picked = browser.execute(
        "const s = document.getElementById('cel-example'); return s.options[s.selectedIndex].text;",
        serde_json::json!([]),
    )?;
    if picked != "Resource quantities" {
        return Err(format!("the CEL example picker shows {picked}"));
    }
    // CRD: the cost refusal (apiextensions validation.go, getCostErrorMessage).
    open(browser, "A rule over the cost limit")?;
    browser.wait_for_text("#crd-refused", "The API server would refuse this CRD", Duration::from_secs(10))?;
    // CRI skew (the CRI API version skew policy).
    open(browser, "CRI skew: an old containerd under a new kubelet")?;
    browser.wait_for_text("#cri-result", "not supported", Duration::from_secs(10))?;
    browser.wait_for_text("#cri-result", "kubelet 1.33.0 → containerd 1.6.0: NOT supported", Duration::from_secs(5))?;
    // Tag docs: the filtered catalog, and Try it loads an example into the declarative view.
    open(browser, "Tag docs: every list tag")?;
    browser.wait_for("#try-listMapKey", Duration::from_secs(10))?;
    browser.click("#try-listMapKey")?;
    browser.wait_for_text("#decl-result", "no errors", Duration::from_secs(10))?;
    let types = browser.property("#types", "value")?;
    if !types.as_str().unwrap_or("").contains("// +k8s:listMapKey=name") {
        return Err(format!("Try it loaded {types}"));
    }
    let object = browser.wait_for("#object", Duration::from_secs(5))?;
    browser.replace_text(&object, "ports:\n- {name: http, port: 80}\n- {name: http, port: 8080}\n")?;
    // apimachinery field/errors.go ErrorBody: a struct value is printed as its JSON.
    browser.wait_for_text(
        "#decl-result",
        "ports[1]: Duplicate value: {\"name\":\"http\",\"port\":8080}",
        Duration::from_secs(10),
    )?;
    browser.screenshot(&shots.join("playground-try-it.png"))
}

fn declarative_edit(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "declarative")?;
    let object = browser.wait_for("#object", Duration::from_secs(30))?;
    browser
        .replace_text(&object, "{\"metadata\": {\"name\": \"w\"}, \"spec\": {\"name\": \"ok\", \"color\": \"Red\"}}")?;
    browser.wait_for_text("#decl-result", "no errors: the API server accepts this object", Duration::from_secs(10))?;
    browser.replace_text(&object, "spec: {name: ok, color: Red, replicas: seven}")?;
    let result = browser.wait_for_text(
        "#decl-result",
        "spec.replicas: error: cannot decode a string into int32: expected an integer",
        Duration::from_secs(10),
    );
    browser.screenshot(&shots.join("playground-decode-error.png"))?;
    result
}

fn declarative_options(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "declarative")?;
    browser.wait_for("#example-2", Duration::from_secs(30))?;
    browser.click("#example-2")?;
    // enum.go: Legacy is excluded while AllowLegacy is off.
    browser.wait_for_text(
        "#decl-result",
        "mode: Unsupported value: \"Legacy\": supported values: \"Batch\", \"Stream\"",
        Duration::from_secs(10),
    )?;
    browser.click("#option-AllowLegacy")?;
    browser.wait_for_text("#decl-result", "no errors", Duration::from_secs(10))?;
    browser.click("#option-RequireOwner")?;
    let result = browser.wait_for_text("#decl-result", "owner: Required value", Duration::from_secs(10));
    browser.screenshot(&shots.join("playground-options.png"))?;
    result
}

fn declarative_persists(browser: &mut Browser, config: &Config, _shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "declarative")?;
    let object = browser.wait_for("#object", Duration::from_secs(30))?;
    browser.replace_text(&object, "{metadata: {name: kept}, spec: {name: kept, color: Blue}}")?;
    browser.wait_for_text("#decl-result", "no errors", Duration::from_secs(10))?;
    browser.refresh()?;
    browser.wait_for("#object", Duration::from_secs(30))?;
    let value = browser.property("#object", "value")?;
    if value.as_str() != Some("{metadata: {name: kept}, spec: {name: kept, color: Blue}}") {
        return Err(format!("after a reload the object editor holds {value}"));
    }
    browser.wait_for_text("#decl-result", "no errors", Duration::from_secs(10))
}

fn declarative_update_and_shadow(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "declarative")?;
    browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(30))?;
    // The old object starts equal to the example object: on update everything ratchets
    // (validation-gen's generated "don't revalidate unchanged data").
    browser.click("#update-toggle")?;
    browser.wait_for("#old", Duration::from_secs(5))?;
    browser.wait_for_text("#decl-result", "no errors: the API server accepts this object", Duration::from_secs(10))?;
    browser.click("#update-toggle")?;
    browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(10))?;
    // apiserver validate.go: the alpha error matches its covered handwritten twin.
    browser.click("summary")?;
    let hw = browser.wait_for("#handwritten", Duration::from_secs(5))?;
    browser.replace_text(&hw, "spec.tags: Too many: 3: must have at most 2 items [origin=maxItems, covered]")?;
    browser.wait_for_text(
        "#shadow-summary",
        "shadow: 1 matched, 0 unmatched handwritten, 0 extra declarative: the mismatch metric grows by 0",
        Duration::from_secs(10),
    )?;
    browser.wait_for_text("#shadow-table", "matched", Duration::from_secs(2))?;
    // An alpha error never replaces its handwritten twin: the handwritten one is returned.
    browser.wait_for_text(
        "#shadow-returned",
        "spec.tags: Too many: 3: must have at most 2 items",
        Duration::from_secs(2),
    )?;
    browser.screenshot(&shots.join("playground-shadow.png"))?;
    // Kubernetes 1.33–1.35: DeclarativeValidationTakeover decides who is authoritative for
    // covered rules (apiserver pkg/registry/rest/validate.go).
    browser.select_option("#k8s-version", "1.33")?;
    browser.wait_for_text("#shadow-summary", "the API server returns 1 error(s)", Duration::from_secs(10))?;
    browser.click("#gate-takeover")?;
    browser.wait_for_text("#shadow-summary", "the API server returns 4 error(s)", Duration::from_secs(10))?;
    browser.click("#gate-takeover")?;
    browser.select_option("#k8s-version", "1.36")?;
    // The subresources the type supports (+k8s:supportsSubresource="/status").
    browser.select_option("#subresource", "/status")?;
    browser.wait_for_text("#decl-result", WIDGET_ERRORS[0], Duration::from_secs(10))?;
    let picked = browser.property("#subresource", "value")?;
    if picked != "/status" {
        return Err(format!("the subresource picker shows {picked}"));
    }
    Ok(())
}

fn tag_docs_search(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "tags")?;
    let search = browser.wait_for("#tag-search", Duration::from_secs(30))?;
    browser.type_text(&search, "maxLen")?;
    browser.wait_for_text("#tag-list", "+k8s:maxLength", Duration::from_secs(10))?;
    let text = browser.text("#tag-list")?;
    if text.contains("+k8s:required") {
        return Err("the search for maxLen still lists +k8s:required".into());
    }
    browser.screenshot(&shots.join("playground-tags.png"))
}

/// The CLI's repository fixture as one stream: the CRD, its widgets, removed API versions.
const REPO_STREAM: &str = concat!(
    include_str!("../../../cli/tests/fixtures/repo/crds/widget.yaml"),
    "---\n",
    include_str!("../../../cli/tests/fixtures/repo/base/widgets.yaml"),
    "---\n",
    include_str!("../../../cli/tests/fixtures/repo/base/legacy.yaml"),
);

/// Types `text` into the Manifests view's editor.
fn set_manifests(browser: &mut Browser, text: &str) -> Result<(), String> {
    browser
        .execute(
            "const a = document.getElementById('manifests'); a.value = arguments[0]; a.dispatchEvent(new Event('input', {bubbles: true}));",
            serde_json::json!([text]),
        )
        .map(|_| ())
}

fn manifests_view(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "manifests")?;
    // The CLI's repository fixture: the CRD, its widgets, removed API versions (kubedv check's
    // verdicts, cli/tests/suite/check.rs).
    browser.wait_for_text(
        "#manifests-result",
        "Widget/too-big: spec: Invalid value: size must not exceed max",
        Duration::from_secs(30),
    )?;
    browser.wait_for_text("#manifests-result", "PodDisruptionBudget/pdb: apiVersion: Invalid value: \"policy/v1beta1\": policy/v1beta1 PodDisruptionBudget is not served since v1.25", Duration::from_secs(2))?;
    // The ConfigMap is a built-in kind: checked once the release's catalog is fetched
    // (catalog/1.37.gz beside the page).
    browser.wait_for_text(
        "#manifests-result",
        "11 documents: 4 valid, 4 invalid, 0 skipped, 3 unreadable",
        Duration::from_secs(30),
    )?;
    // A built-in kind the API server cannot decode, in its words (cli/tests/suite/check.rs).
    set_manifests(
        browser,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: \"2\"\n",
    )?;
    browser.wait_for_text(
        "#manifests-result",
        "6: Deployment/web: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32",
        Duration::from_secs(10),
    )?;
    set_manifests(browser, REPO_STREAM)?;
    browser.wait_for_text("#manifests-result", "11 documents: 4 valid", Duration::from_secs(10))?;
    // Custom resources no CRD among the documents serves: the CRD catalog's (its index, then
    // the project files the stream needs, fetched from catalog/crds/ beside the page), as
    // `kubedv check` (cli/tests/suite/crd_catalog.rs).
    set_manifests(browser, include_str!("../../../cli/tests/fixtures/catalog/app.yaml"))?;
    browser.wait_for_text(
        "#manifests-result",
        "Certificate/web (CRD of cert-manager@v1.21.1): spec.privateKey.algorithm: Unsupported value: \"RSB\": supported values: \"RSA\", \"ECDSA\", \"Ed25519\"",
        Duration::from_secs(30),
    )?;
    browser.wait_for_text(
        "#manifests-result",
        "4 documents: 0 valid, 3 invalid, 1 skipped",
        Duration::from_secs(10),
    )?;
    set_manifests(browser, REPO_STREAM)?;
    browser.wait_for_text("#manifests-result", "11 documents: 4 valid", Duration::from_secs(10))?;
    // In 1.24 policy/v1beta1 is served, with the API server's warning.
    browser.select_option("#manifests-version", "1.24")?;
    browser.wait_for_text(
        "#manifests-result",
        "warning: policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget",
        Duration::from_secs(10),
    )?;
    browser.screenshot(&shots.join("playground-manifests.png"))
}

fn policies_view(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "policies")?;
    // The CLI's policy fixtures (cli/tests/suite/policy.rs): the test binding denies with the
    // API server's text (apiserver validating/dispatcher.go).
    browser.wait_for_text(
        "#policy-verdict",
        "denied (422 Invalid): deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no greater than 3",
        Duration::from_secs(30),
    )?;
    browser.wait_for_text(
        "#policy-result",
        "matchResources: the labels of namespace \"staging\" do not match namespaceSelector",
        Duration::from_secs(2),
    )?;
    // The mutating example: both mutations applied, shown as a patch.
    browser.select_option("#policy-example", "3")?;
    browser.wait_for_text("#policy-patch", "+ /metadata/labels {\"environment\":\"test\"}", Duration::from_secs(10))?;
    browser.wait_for_text("#policy-verdict", "allowed", Duration::from_secs(2))?;
    browser.screenshot(&shots.join("playground-policies.png"))
}

fn cri_view(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "cri")?;
    browser.wait_for_text(
        "#cri-result",
        "supported: every pair is within the CRI API version skew policy",
        Duration::from_secs(10),
    )?;
    browser.wait_for_text("#cri-result", "k8s.io/cri-api v0.27.1", Duration::from_secs(2))?;
    let runtime = browser.wait_for("#cri-runtime", Duration::from_secs(5))?;
    browser.clear(&runtime)?;
    browser.type_text(&runtime, "containerd=1.5.18")?;
    browser.wait_for_text("#cri-result", "they share no major CRI version", Duration::from_secs(10))?;
    browser.wait_for_text(
        "#cri-maturity",
        "beta enabled by default is blocked by \"Safe Kubernetes defaults\"",
        Duration::from_secs(5),
    )?;
    browser.screenshot(&shots.join("playground-cri.png"))
}

fn playground_invalid(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "formats")?;
    let value = browser.wait_for("#value", Duration::from_secs(30))?;
    browser.clear(&value)?;
    browser.type_text(&value, "My_Name")?;
    let result = browser.wait_for_text("#result", SHORT_NAME_ERROR, Duration::from_secs(10));
    browser.screenshot(&shots.join("playground.png"))?;
    result
}

fn playground_valid(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let _server = open_tab(browser, config, "formats")?;
    let value = browser.wait_for("#value", Duration::from_secs(30))?;
    browser.clear(&value)?;
    browser.type_text(&value, "example.com/gpu")?;
    // Not a short name (it has '/' and '.'), but a valid label key once the picker says so.
    browser.wait_for_text("#result", "metadata.name: Invalid value: \"example.com/gpu\"", Duration::from_secs(10))?;
    browser.select_option("#format", "k8s-label-key")?;
    let result = browser.wait_for_text("#result", "valid k8s-label-key", Duration::from_secs(10));
    browser.screenshot(&shots.join("playground-valid.png"))?;
    result
}

fn www_page(browser: &mut Browser, config: &Config, shots: &Path) -> Result<(), String> {
    let www = config.root.join("www");
    if !www.join("node_modules/kubedv/package.json").is_file() {
        return Err("www/node_modules/kubedv is missing: build the npm package and run `npm install` in www/".into());
    }
    let server = server::Server::start(www)?;
    browser.goto(&server.url("/index.html"))?;
    let input = browser.wait_for("#value", Duration::from_secs(30))?;
    browser.clear(&input)?;
    browser.type_text(&input, "Bad.Label")?;
    let expected = "<nil>: Invalid value: \"Bad.Label\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters";
    let result = browser.wait_for_text("#out", expected, Duration::from_secs(10));
    browser.screenshot(&shots.join("www.png"))?;
    result?;
    browser.wait_for_text("#version", "kubedv ", Duration::from_secs(5))
}
