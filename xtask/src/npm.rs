//! Building the npm package `kubedv` with wasm-pack (wasm-opt -Oz from the local binaryen).

use std::path::Path;

use crate::env::Env;

/// Builds `wasm/pkg` (the size-optimised `wasm-release` profile, then wasm-opt from the local
/// binaryen) for the three ways JavaScript loads WebAssembly: the `web` ES module at the root
/// (browsers, and Node with `init`), `nodejs` in `node/` (CommonJS, loads synchronously: what
/// `require("kubedv")` gets) and `bundler` in `bundler/` (`kubedv/bundler`, for webpack/Vite).
/// The package is named `kubedv` (wasm-pack would name it after the crate, `kubedv-wasm`).
pub fn build(env: &Env) -> Result<(), String> {
    let pack = |target: &str, out: &str| {
        env.run(
            &format!("npm: wasm-pack build --profile wasm-release --target {target}"),
            env.command("wasm-pack").args([
                "build",
                "wasm",
                "--profile",
                "wasm-release",
                "--target",
                target,
                "--out-dir",
                out,
                "--out-name",
                "kubedv",
            ]),
        )
    };
    pack("nodejs", "pkg-node")?;
    pack("bundler", "pkg-bundler")?;
    pack("web", "pkg")?;
    let pkg = env.root.join("wasm/pkg");
    for (from, to) in [("pkg-node", "node"), ("pkg-bundler", "bundler")] {
        let (src, dst) = (env.root.join("wasm").join(from), pkg.join(to));
        std::fs::create_dir_all(&dst).map_err(|e| format!("npm: {}: {e}", dst.display()))?;
        for file in ["kubedv.js", "kubedv_bg.js", "kubedv_bg.wasm", "kubedv.d.ts", "kubedv_bg.wasm.d.ts"] {
            let path = src.join(file);
            if !path.exists() {
                continue;
            }
            // In a `"type": "module"` package, CommonJS files must be `.cjs`.
            let name = if to == "node" && file == "kubedv.js" { "kubedv.cjs" } else { file };
            std::fs::copy(&path, dst.join(name)).map_err(|e| format!("npm: {}: {e}", path.display()))?;
        }
        let _ = std::fs::remove_dir_all(&src);
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
        files.extend(["node/", "bundler/"].map(serde_json::Value::from));
    }
    // Conditions are tried in order (Node picks the first that matches), so `exports` is
    // written by hand: serde_json's map would sort `default` before `require`.
    let exports = r#"  "exports": {
    ".": { "types": "./kubedv.d.ts", "require": "./node/kubedv.cjs", "default": "./kubedv.js" },
    "./node": { "types": "./node/kubedv.d.ts", "default": "./node/kubedv.cjs" },
    "./bundler": { "types": "./bundler/kubedv.d.ts", "default": "./bundler/kubedv.js" },
    "./kubedv_bg.wasm": "./kubedv_bg.wasm"
  },
"#;
    let text = serde_json::to_string_pretty(&json).expect("a JSON value serializes");
    let text = text.replacen("{\n", &format!("{{\n{exports}"), 1);
    std::fs::write(&manifest, text + "\n").map_err(|e| format!("npm: cannot write {}: {e}", manifest.display()))?;
    print_size(env, &env.root.join("wasm/pkg/kubedv_bg.wasm"));
    Ok(())
}

/// Prints a wasm file's raw and gzipped (-9) size.
pub fn print_size(env: &Env, wasm: &Path) {
    let raw = std::fs::metadata(wasm).map(|m| m.len()).unwrap_or(0);
    let gz = env
        .command("sh")
        .args(["-c", "gzip -9 -c \"$1\" | wc -c", "sh"])
        .arg(wasm)
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u64>().ok())
        .unwrap_or(0);
    println!("==> size: {} {} bytes raw, {} bytes gzipped", wasm.display(), raw, gz);
}
