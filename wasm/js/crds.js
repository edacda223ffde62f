// kubedv/crds: the CRD catalog (the released CRDs of widely used projects: Gateway API, Istio,
// cert-manager, Argo, Flux, ...), loaded on demand: `loadCrdCatalog()` reads the index (a few
// KB gzipped by the server), `crdCatalog.load(names)` the project files a check needs, so no
// .wasm carries them. Plain JavaScript: `checkManifests` of kubedv/full does the routing
// (kubedv-input's crd_catalog, the same as the CLI's). The files are written by
// `cargo xtask crd-catalog`.

const MAGIC = "kubedv-crd-catalog 1";

async function read(name) {
  const url = new URL(`./${name}`, import.meta.url);
  let bytes;
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    bytes = await readFile(url);
  } else {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  if (!name.endsWith(".gz")) return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** The catalog: its index text, the projects loaded so far, and the user's pins. */
export class CrdCatalog {
  constructor(index, pins = []) {
    if (!index.startsWith(MAGIC)) throw new Error(`not a kubedv CRD catalog index (it must begin with \`${MAGIC}\`)`);
    this.index = index;
    this.projects = {};
    this.pins = pins;
  }

  /** The projects, as `kubedv crds list` shows them. */
  list() {
    const out = [];
    for (const line of this.index.split("\n")) {
      const f = line.split("\t");
      if (f[0] === "project") {
        out.push({ project: f[1], repository: f[2], license: f[3], variant: f[4] === "variant", releases: f.slice(5) });
      }
    }
    return out;
  }

  /** Loads the files of the projects named (those `crdCatalogNeeds` returns); loaded ones are kept. */
  async load(names) {
    const known = new Set(this.list().map((p) => p.project));
    await Promise.all(
      names
        .filter((n) => !(n in this.projects))
        .map(async (n) => {
          if (!known.has(n)) throw new Error(`no project ${JSON.stringify(n)} in the CRD catalog`);
          this.projects[n] = await read(`${n}.json.gz`);
        }),
    );
    return this;
  }
}

/** Loads the catalog's index. `pins`: PROJECT or PROJECT@RELEASE, the projects (and releases) to
 * prefer for the kinds they serve (`["istio@1.28", "gateway-api-experimental"]`). */
export async function loadCrdCatalog(pins = []) {
  return new CrdCatalog(await read("index.txt"), pins);
}
