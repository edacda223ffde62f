//! Building the npm package `kubedv` with wasm-pack (wasm-opt from the local binaryen): browser
//! builds optimised for size, a Node build for speed.

use std::path::Path;

use crate::env::Env;

/// Builds `wasm/pkg` for the three ways JavaScript loads WebAssembly: the `web` ES module at the
/// root (browsers; the size-optimised `wasm-release` profile, then wasm-opt -Oz and more),
/// `bundler` in `bundler/` (`kubedv/bundler`, for webpack/Vite: the same .wasm) and `nodejs` in
/// `node/` (built for speed: what Node gets for `require("kubedv")` and, through
/// `node/kubedv.mjs`, for `import "kubedv"`; loads synchronously).
/// The modules `kubedv/policy` and `kubedv/full` are built the same way into `policy/` and `full/`.
/// The package is named `kubedv` (wasm-pack would name it after the crate, `kubedv-wasm`).
pub fn build(env: &Env) -> Result<(), String> {
    // `name` is the module: `kubedv`, `kubedv_full` (with the CRD's own checks) or
    // `kubedv_policy` (built with only the `policy` feature). `profile`: `wasm-release` (size)
    // or `release` (speed). `optimize`: wasm-opt with the crate's `wasm-release` flags
    // (minutes per module), else wasm-bindgen's output as it is.
    let pack = |target: &str, out: &str, name: &str, profile: &str, optimize: bool| {
        let mut cmd = env.command("wasm-pack");
        cmd.args(["build", "wasm", "--profile", profile, "--target", target, "--out-dir", out, "--out-name", name]);
        if !optimize {
            cmd.arg("--no-opt");
        }
        match name {
            "kubedv_policy" => {
                cmd.args(["--", "--no-default-features", "--features", "policy"]);
            }
            "kubedv_full" => {
                cmd.args(["--", "--features", "full"]);
            }
            _ => {}
        }
        let how = if optimize { "" } else { ", --no-opt" };
        env.run(&format!("npm: wasm-pack build --profile {profile} --target {target}{how} ({name})"), &mut cmd)
    };
    // The browser builds (`web`, `bundler`) are built for size; wasm-bindgen writes the same
    // .wasm for both (only the JavaScript around it differs): each module is optimised once, for
    // `web`, and that file serves both. The unoptimised outputs are compared first, so a
    // wasm-bindgen that made them differ stops the build instead of shipping a mismatched module.
    // The Node build (`nodejs`) is built for speed: the `release` profile (opt-level 3), then
    // `wasm-opt -O3`; in Node a module's size costs a read from disk, not a download.
    for (name, web, node, bundler) in [
        ("kubedv", "pkg", "pkg-node", "pkg-bundler"),
        ("kubedv_policy", "pkg-policy", "pkg-policy-node", "pkg-policy-bundler"),
        ("kubedv_full", "pkg-full", "pkg-full-node", "pkg-full-bundler"),
    ] {
        let wasm = |dir: &str| env.root.join("wasm").join(dir).join(format!("{name}_bg.wasm"));
        let read = |dir: &str| std::fs::read(wasm(dir)).map_err(|e| format!("npm: {}: {e}", wasm(dir).display()));
        for (target, out) in [("web", web), ("bundler", bundler)] {
            pack(target, out, name, "wasm-release", false)?;
        }
        if read(bundler)? != read(web)? {
            return Err(format!("npm: wasm-bindgen wrote different {name}_bg.wasm files for web and bundler"));
        }
        pack("web", web, name, "wasm-release", true)?;
        std::fs::copy(wasm(web), wasm(bundler)).map_err(|e| format!("npm: {}: {e}", wasm(bundler).display()))?;
        pack("nodejs", node, name, "release", false)?;
        let node_wasm = wasm(node).display().to_string();
        env.run(
            &format!("npm: wasm-opt -O3 ({name}, Node)"),
            env.command("wasm-opt").args([
                "-O3",
                "--strip-producers",
                "--strip-target-features",
                &node_wasm,
                "-o",
                &node_wasm,
            ]),
        )?;
    }
    let pkg = env.root.join("wasm/pkg");
    for (from, to, name) in [
        ("pkg-node", "node", "kubedv"),
        ("pkg-bundler", "bundler", "kubedv"),
        ("pkg-policy", "policy", "kubedv_policy"),
        ("pkg-policy-node", "policy/node", "kubedv_policy"),
        ("pkg-policy-bundler", "policy/bundler", "kubedv_policy"),
        ("pkg-full", "full", "kubedv_full"),
        ("pkg-full-node", "full/node", "kubedv_full"),
        ("pkg-full-bundler", "full/bundler", "kubedv_full"),
    ] {
        let (src, dst) = (env.root.join("wasm").join(from), pkg.join(to));
        std::fs::create_dir_all(&dst).map_err(|e| format!("npm: {}: {e}", dst.display()))?;
        for ext in [".js", "_bg.js", "_bg.wasm", ".d.ts", "_bg.wasm.d.ts"] {
            let file = format!("{name}{ext}");
            let path = src.join(&file);
            if !path.exists() {
                continue;
            }
            // In a `"type": "module"` package, CommonJS files must be `.cjs`.
            let file = if to.ends_with("node") && ext == ".js" { format!("{name}.cjs") } else { file };
            std::fs::copy(&path, dst.join(file)).map_err(|e| format!("npm: {}: {e}", path.display()))?;
        }
        copy_snippets(&src.join("snippets"), &dst, to.ends_with("node"), name)?;
        let _ = std::fs::remove_dir_all(&src);
        if to.ends_with("node") {
            // What `init` returns in the web build: the module's raw exports.
            let cjs = dst.join(format!("{name}.cjs"));
            let mut text = std::fs::read_to_string(&cjs).map_err(|e| format!("npm: {}: {e}", cjs.display()))?;
            text.push_str("exports.__wasm = wasm;\n");
            std::fs::write(&cjs, text).map_err(|e| format!("npm: {}: {e}", cjs.display()))?;
            let esm = dst.join(format!("{name}.mjs"));
            std::fs::write(&esm, node_module(name)).map_err(|e| format!("npm: {}: {e}", esm.display()))?;
        }
    }
    let manifest = env.root.join("wasm/pkg/package.json");
    let text =
        std::fs::read_to_string(&manifest).map_err(|e| format!("npm: cannot read {}: {e}", manifest.display()))?;
    let mut json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("npm: {}: {e}", manifest.display()))?;
    json["name"] = "kubedv".into();
    // An ES module that Node resolves too (wasm-pack's web target only sets "module").
    json["type"] = "module".into();
    json["main"] = "kubedv.js".into();
    if let Some(obj) = json.as_object_mut() {
        obj.remove("exports");
    }
    if let Some(files) = json["files"].as_array_mut() {
        files.extend(
            ["node/", "bundler/", "policy/", "full/", "catalog/", "crds/", "snippets/", "tags.json"]
                .map(serde_json::Value::from),
        );
    }
    // The built-in kinds catalogs: data files loaded on demand by a small JavaScript module
    // (`kubedv/catalog`), none of it in a .wasm.
    let catalog_dir = pkg.join("catalog");
    std::fs::create_dir_all(&catalog_dir).map_err(|e| format!("npm: {}: {e}", catalog_dir.display()))?;
    let mut copies = vec![
        (env.root.join("wasm/js/catalog.js"), catalog_dir.join("index.js")),
        (env.root.join("wasm/js/catalog.d.ts"), catalog_dir.join("index.d.ts")),
    ];
    for v in kubedv_core::declarative::shadow::VERSIONS {
        let file = format!("1.{}.gz", v.minor);
        copies.push((env.root.join("catalog").join(&file), catalog_dir.join(&file)));
    }
    // The CRD catalog likewise (`kubedv/crds`): its index and a file per project.
    let crds_dir = pkg.join("crds");
    std::fs::create_dir_all(&crds_dir).map_err(|e| format!("npm: {}: {e}", crds_dir.display()))?;
    copies.push((env.root.join("wasm/js/crds.js"), crds_dir.join("index.js")));
    copies.push((env.root.join("wasm/js/crds.d.ts"), crds_dir.join("index.d.ts")));
    let compact = env.root.join("catalog/crds");
    for entry in std::fs::read_dir(&compact).map_err(|e| format!("npm: {}: {e}", compact.display()))? {
        let name = entry.map_err(|e| e.to_string())?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".json.gz") || name == "index.txt" {
            copies.push((compact.join(&name), crds_dir.join(&name)));
        }
    }
    for (from, to) in copies {
        std::fs::copy(&from, &to).map_err(|e| format!("npm: {}: {e}", from.display()))?;
    }
    // The tag documentation is data beside the module, not text inside it.
    let tags = serde_json::to_string_pretty(kubedv_core::declarative::catalog::TAGS).expect("static docs serialize");
    let tags_path = env.root.join("wasm/pkg/tags.json");
    std::fs::write(&tags_path, tags + "\n").map_err(|e| format!("npm: cannot write {}: {e}", tags_path.display()))?;
    // Conditions are tried in order (Node picks the first that matches), so `exports` is
    // written by hand: serde_json's map would sort `default` before `require`.
    let exports = r#"  "exports": {
    ".": { "types": "./kubedv.d.ts", "browser": "./kubedv.js", "node": { "import": "./node/kubedv.mjs", "require": "./node/kubedv.cjs" }, "default": "./kubedv.js" },
    "./node": { "types": "./node/kubedv.d.ts", "default": "./node/kubedv.cjs" },
    "./bundler": { "types": "./bundler/kubedv.d.ts", "default": "./bundler/kubedv.js" },
    "./policy": { "types": "./policy/kubedv_policy.d.ts", "browser": "./policy/kubedv_policy.js", "node": { "import": "./policy/node/kubedv_policy.mjs", "require": "./policy/node/kubedv_policy.cjs" }, "default": "./policy/kubedv_policy.js" },
    "./policy/node": { "types": "./policy/node/kubedv_policy.d.ts", "default": "./policy/node/kubedv_policy.cjs" },
    "./policy/bundler": { "types": "./policy/bundler/kubedv_policy.d.ts", "default": "./policy/bundler/kubedv_policy.js" },
    "./policy/kubedv_policy_bg.wasm": "./policy/kubedv_policy_bg.wasm",
    "./full": { "types": "./full/kubedv_full.d.ts", "browser": "./full/kubedv_full.js", "node": { "import": "./full/node/kubedv_full.mjs", "require": "./full/node/kubedv_full.cjs" }, "default": "./full/kubedv_full.js" },
    "./full/node": { "types": "./full/node/kubedv_full.d.ts", "default": "./full/node/kubedv_full.cjs" },
    "./full/bundler": { "types": "./full/bundler/kubedv_full.d.ts", "default": "./full/bundler/kubedv_full.js" },
    "./full/kubedv_full_bg.wasm": "./full/kubedv_full_bg.wasm",
    "./kubedv_bg.wasm": "./kubedv_bg.wasm",
    "./catalog": { "types": "./catalog/index.d.ts", "default": "./catalog/index.js" },
    "./catalog/*": "./catalog/*.gz",
    "./crds": { "types": "./crds/index.d.ts", "default": "./crds/index.js" },
    "./tags.json": "./tags.json"
  },
"#;
    let text = serde_json::to_string_pretty(&json).expect("a JSON value serializes");
    let text = text.replacen("{\n", &format!("{{\n{exports}"), 1);
    std::fs::write(&manifest, text + "\n").map_err(|e| format!("npm: cannot write {}: {e}", manifest.display()))?;
    for dir in ["", "node", "bundler", "policy", "policy/node", "policy/bundler", "full", "full/node", "full/bundler"] {
        for file in [
            "kubedv.d.ts",
            "kubedv_bg.wasm.d.ts",
            "kubedv_policy.d.ts",
            "kubedv_policy_bg.wasm.d.ts",
            "kubedv_full.d.ts",
            "kubedv_full_bg.wasm.d.ts",
        ] {
            let path = pkg.join(dir).join(file);
            if let Ok(text) = std::fs::read_to_string(&path) {
                std::fs::write(&path, precise_declarations(&text))
                    .map_err(|e| format!("npm: cannot write {}: {e}", path.display()))?;
            }
        }
    }
    // These modules are downloaded only by those who import `kubedv/policy` or `kubedv/full`.
    print_size(env, &env.root.join("wasm/pkg/policy/kubedv_policy_bg.wasm"));
    print_size(env, &env.root.join("wasm/pkg/full/kubedv_full_bg.wasm"));
    let gz = print_size(env, &env.root.join("wasm/pkg/kubedv_bg.wasm"));
    // Every user downloads the package: its budget is 400 KB gzipped.
    match gz {
        Some(gz) if gz >= 400_000 => {
            Err(format!("npm: kubedv_bg.wasm is {gz} bytes gzipped, over the 400,000-byte budget"))
        }
        _ => Ok(()),
    }
}

/// The ES module Node loads for `import "kubedv"` (the package's `node` condition): the Node
/// build's CommonJS module, re-exported. It loads synchronously, so `init` and `initSync` (the
/// web build's loaders, which code written for both calls) only hand back the module's exports.
fn node_module(name: &str) -> String {
    format!(
        r#"// kubedv's Node build (optimised for speed; the browser build at the package's root is
// optimised for size), as an ES module. The WebAssembly is loaded synchronously when this
// module is: `init` and `initSync` are kept for code written for the web build, and ignore
// their argument.
import {{ createRequire }} from "node:module";
export * from "./{name}.cjs";
const kubedv = createRequire(import.meta.url)("./{name}.cjs");
export function initSync() {{
  return kubedv.__wasm;
}}
export default async function init() {{
  return kubedv.__wasm;
}}
"#
    )
}

/// Copies wasm-bindgen's JS snippets (`snippets/<crate>-<hash>/inline0.js`, imported by the
/// module) beside a module. For the Node (CommonJS) modules of this `"type": "module"`
/// package a snippet must be CommonJS too (`require` of an ES module needs Node 20.19+):
/// its `export function f` lines become `exports.f = function f`, the file `.cjs`, and the
/// module's `require` names it so.
fn copy_snippets(
    from: &std::path::Path,
    module_dir: &std::path::Path,
    commonjs: bool,
    name: &str,
) -> Result<(), String> {
    let Ok(crates) = std::fs::read_dir(from) else { return Ok(()) };
    let err = |p: &std::path::Path, e: std::io::Error| format!("npm: {}: {e}", p.display());
    let main = module_dir.join(if commonjs { format!("{name}.cjs") } else { format!("{name}.js") });
    for dir in crates.flatten() {
        let to = module_dir.join("snippets").join(dir.file_name());
        std::fs::create_dir_all(&to).map_err(|e| err(&to, e))?;
        for file in std::fs::read_dir(dir.path()).map_err(|e| err(&dir.path(), e))?.flatten() {
            let text = std::fs::read_to_string(file.path()).map_err(|e| err(&file.path(), e))?;
            let file_name = file.file_name().to_string_lossy().into_owned();
            if !commonjs {
                std::fs::write(to.join(&file_name), text).map_err(|e| err(&to, e))?;
                continue;
            }
            let converted: String = text
                .lines()
                .map(|l| match l.strip_prefix("export function ") {
                    Some(rest) => {
                        let f = rest.split('(').next().unwrap_or("").trim();
                        format!("exports.{f} = function {rest}\n")
                    }
                    None => format!("{l}\n"),
                })
                .collect();
            let cjs = file_name.replace(".js", ".cjs");
            std::fs::write(to.join(&cjs), converted).map_err(|e| err(&to, e))?;
            // Only the `require`s change: the imports object keeps the name the .wasm imports.
            let crate_dir = dir.file_name().to_string_lossy().into_owned();
            let (js, cjs) = (format!("./snippets/{crate_dir}/{file_name}"), format!("./snippets/{crate_dir}/{cjs}"));
            let module = std::fs::read_to_string(&main).map_err(|e| err(&main, e))?;
            let module = module
                .replace(&format!("require(\"{js}\")"), &format!("require(\"{cjs}\")"))
                .replace(&format!("require(String.raw`{js}`)"), &format!("require(String.raw`{cjs}`)"));
            std::fs::write(&main, module).map_err(|e| err(&main, e))?;
        }
    }
    Ok(())
}

/// Two touches to wasm-bindgen's TypeScript: trailing parameters that accept `null` become
/// optional (`old?: object | string | null`, as wasm-bindgen renders an `Option` it types
/// itself; with a hand-written type it drops the `?`), and the raw exports' `any` becomes
/// `unknown`, so no declaration of the package is `any`.
fn precise_declarations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        out.push_str(&optional_trailing_nullables(line).replace(": any", ": unknown").replace("any)", "unknown)"));
        out.push('\n');
    }
    out
}

/// `f(a: A, b: B | null, c: C | null): R;` → `f(a: A, b?: B | null, c?: C | null): R;`
fn optional_trailing_nullables(line: &str) -> String {
    let trimmed = line.trim_start();
    let is_signature =
        trimmed.starts_with("export function ") || (line.starts_with("    ") && !trimmed.starts_with('*'));
    let (Some(open), Some(close)) = (line.find('('), line.rfind("):")) else { return line.to_string() };
    if !is_signature || close < open || !line.ends_with(';') {
        return line.to_string();
    }
    // Split the parameters at top-level commas (types contain `{ a: string }` and unions).
    let params_text = &line[open + 1..close];
    let mut params = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in params_text.char_indices() {
        match c {
            '(' | '{' | '<' | '[' => depth += 1,
            ')' | '}' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                params.push(params_text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !params_text.trim().is_empty() {
        params.push(params_text[start..].trim().to_string());
    }
    for param in params.iter_mut().rev() {
        let Some((name, ty)) = param.split_once(": ") else { break };
        if !ty.ends_with("| null") || name.ends_with('?') {
            break;
        }
        *param = format!("{name}?: {ty}");
    }
    format!("{}{}{}", &line[..open + 1], params.join(", "), &line[close..])
}

/// Prints a wasm file's raw and gzipped (-9) size; returns the gzipped size.
pub fn print_size(env: &Env, wasm: &Path) -> Option<u64> {
    let raw = std::fs::metadata(wasm).map(|m| m.len()).unwrap_or(0);
    let gz = env
        .command("sh")
        .args(["-c", "gzip -9 -c \"$1\" | wc -c", "sh"])
        .arg(wasm)
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u64>().ok());
    println!("==> size: {} {} bytes raw, {} bytes gzipped", wasm.display(), raw, gz.unwrap_or(0));
    gz
}
