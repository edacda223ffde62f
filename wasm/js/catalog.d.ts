// kubedv/catalog: the built-in kinds catalog of one Kubernetes version, loaded on demand.
import type { Schema, CompileOptions, ValidateOptions, ValidationResult } from "../kubedv.js";

/** The Kubernetes versions that have a catalog, oldest first; the last is the default. */
export declare const CATALOG_VERSIONS: readonly string[];

/** One k8s.io/api package: its `types.go` with comment text stripped. */
export interface CatalogPackage {
  /** `k8s.io/api/apps/v1`. */
  importPath: string;
  /** The API group (`apps`; "" for the core group). */
  group: string;
  /** The API version (`v1`). */
  version: string;
  source: string;
}

/** What validating a built-in object gives: the result, and what it covers. */
export interface BuiltinResult extends ValidationResult {
  /** The verdict's coverage: the kind's declarative rules only. */
  coverage: string;
}

/** A built-in kind, compiled. */
export interface BuiltinKind {
  coverage: string;
  validate(object: object | string, old?: object | string | null, opts?: ValidateOptions): BuiltinResult;
}

/** `compileTypes` of the kubedv module the caller loaded. */
export type CompileTypes = (src: string, opts?: CompileOptions | null) => Schema;

/** One Kubernetes version's API packages. */
export declare class Catalog {
  /** The Kubernetes version ("1.37"). */
  readonly kubernetes: string;
  /** Where the sources come from (repository, commit, date, tag). */
  readonly sources: string[];
  readonly packages: CatalogPackage[];
  /** The catalog's text (`kubedv-catalog 1` ...), as `checkManifests` of `kubedv/full` takes it. */
  readonly text: string;
  /** The package serving an apiVersion ("apps/v1", "v1"). */
  serving(apiVersion: string): CatalogPackage | undefined;
  /** The catalog packages a Go source imports (transitively), as `compileTypes`' `imports`. */
  imports(source: string): Record<string, string>;
  /** A built-in kind, compiled once per package. Throws for an unknown apiVersion or kind. */
  kind(compileTypes: CompileTypes, apiVersion: string, kind: string): BuiltinKind;
  /** Validates a built-in object, routed by its apiVersion and kind. */
  validate(compileTypes: CompileTypes, object: object | string, old?: object | string | null, opts?: ValidateOptions): BuiltinResult;
}

/** Reads a catalog's text (the decompressed `kubedv/catalog/1.N.gz`). */
export declare function parseCatalog(text: string): Catalog;
/** Loads the catalog of a Kubernetes version ("1.37" by default) from the package's files:
 *  read from disk in Node, fetched beside the module in browsers. */
export declare function loadCatalog(version?: string): Promise<Catalog>;
