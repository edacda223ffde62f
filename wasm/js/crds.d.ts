// kubedv/crds: the CRD catalog, loaded on demand.

/** A project of the catalog. */
export interface CrdCatalogProject {
  project: string;
  /** GitHub `owner/name` its CRDs come from. */
  repository: string;
  /** SPDX id. */
  license: string;
  /** Taken only when pinned (a variant of another project's CRDs). */
  variant: boolean;
  /** Newest first. */
  releases: string[];
}

/** The catalog as `checkManifests` reads it (its `crdCatalog` option). */
export declare class CrdCatalog {
  /** The index text. */
  readonly index: string;
  /** The project files loaded so far, by name. */
  readonly projects: Record<string, string>;
  /** PROJECT or PROJECT@RELEASE. */
  pins: string[];
  list(): CrdCatalogProject[];
  /** Loads the files of the projects named (`crdCatalogNeeds(files, options)` of kubedv/full). */
  load(names: string[]): Promise<CrdCatalog>;
}

/** Loads the index; `pins` choose projects and releases for the kinds they serve. */
export declare function loadCrdCatalog(pins?: string[]): Promise<CrdCatalog>;
