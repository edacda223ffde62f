//! `cargo xtask bench`: one table of the same workloads run natively (the core example
//! `bench_native`), in WebAssembly under Node (www/bench/cel.mjs, www/bench/validate.mjs, on
//! the built npm package: run `cargo xtask npm` and `npm install` in www/ first) and by
//! @marcbachmann/cel-js, measured in one run. Full runs are by hand; CI runs the benchmarks'
//! agreement checks only (www/test/bench.test.mjs).

use std::collections::BTreeMap;

use crate::env::Env;

pub fn run(env: &Env) -> Result<(), String> {
    let mut native = env.command("cargo");
    native.args(["run", "--quiet", "--release", "-p", "kubedv-core", "--example", "bench_native"]);
    let native = output(&mut native, "the native benchmark")?;
    let native: BTreeMap<String, f64> = native
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter_map(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        .collect();
    let script = "import { run } from './bench/cel.mjs'; import { run as validate } from './bench/validate.mjs'; \
                  console.log(JSON.stringify({ cel: run(), validate: validate().perThousand }));";
    let mut node = env.command("node");
    node.current_dir(env.root.join("www")).args(["--input-type=module", "-e", script]);
    let wasm: serde_json::Value = serde_json::from_str(output(&mut node, "the Node benchmarks")?.trim())
        .map_err(|e| format!("bench: the Node benchmarks printed no JSON: {e}"))?;
    println!("CEL, ns per evaluation (median of 7 rounds); ratios to cel-js");
    println!(
        "{:<15} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8}   {:>13} {:>13}",
        "rule", "native", "native+", "wasm vars", "wasm obj", "wasm eval", "cel-js", "vars/cel-js", "obj/cel-js"
    );
    for row in wasm["cel"].as_array().into_iter().flatten() {
        let name = row["name"].as_str().unwrap_or("?");
        let f = |k: &str| row[k].as_f64().unwrap_or(f64::NAN);
        let (vars, obj, eval, cel_js) = (f("test"), f("plainTest"), f("plain"), f("celJs"));
        let n = |k: &str| native.get(&format!("{k} {name}")).copied().unwrap_or(f64::NAN);
        println!(
            "{name:<15} {:>10.0} {:>10.0} {vars:>10.0} {obj:>10.0} {eval:>10.0} {cel_js:>8.0}   {:>12.2}x {:>12.2}x",
            n("cel"),
            n("cel-text"),
            vars / cel_js,
            obj / cel_js
        );
    }
    println!("  native: variables bound once; native+: parsing the object's JSON text each time too;");
    println!("  wasm vars: program.test(celVars); wasm obj: program.test({{self}}); wasm eval: program.eval({{self}})");
    let (native_ms, wasm_ms) =
        (native.get("validate").copied().unwrap_or(f64::NAN) / 1e6, wasm["validate"].as_f64().unwrap_or(f64::NAN));
    println!(
        "validate 1,000 Deployments: native {native_ms:.1} ms (parsing included), WebAssembly {wasm_ms:.1} ms: {:.2}x",
        wasm_ms / native_ms
    );
    Ok(())
}

fn output(cmd: &mut std::process::Command, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("bench: cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("bench: {what} failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
