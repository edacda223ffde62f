//! Building the npm package `kubedv` with wasm-pack (wasm-opt -Oz from the local binaryen).

use std::path::Path;

use crate::env::Env;

/// Builds `wasm/pkg` (ES module for browsers and Node, with TypeScript declarations; the
/// size-optimised `wasm-release` profile, then wasm-opt from the local binaryen) and
/// names the package `kubedv` (wasm-pack would name it after the crate, `kubedv-wasm`).
pub fn build(env: &Env) -> Result<(), String> {
    env.run(
        "npm: wasm-pack build --profile wasm-release --target web",
        env.command("wasm-pack").args([
            "build",
            "wasm",
            "--profile",
            "wasm-release",
            "--target",
            "web",
            "--out-dir",
            "pkg",
            "--out-name",
            "kubedv",
        ]),
    )?;
    let manifest = env.root.join("wasm/pkg/package.json");
    let text =
        std::fs::read_to_string(&manifest).map_err(|e| format!("npm: cannot read {}: {e}", manifest.display()))?;
    let mut json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("npm: {}: {e}", manifest.display()))?;
    json["name"] = "kubedv".into();
    // An ES module that Node resolves too (wasm-pack's web target only sets "module").
    json["type"] = "module".into();
    json["main"] = "kubedv.js".into();
    json["exports"] = serde_json::json!({
        ".": { "types": "./kubedv.d.ts", "default": "./kubedv.js" },
        "./kubedv_bg.wasm": "./kubedv_bg.wasm"
    });
    let text = serde_json::to_string_pretty(&json).expect("a JSON value serializes");
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
