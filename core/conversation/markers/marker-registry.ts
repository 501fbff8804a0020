import type { MarkerDefinition } from "./marker.ts";

/** Folds a raw name for comparison: no diacritics, upper case, no "-" or "_". */
export function nameKey(raw: string): string {
  return raw.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/[-_]/g, "");
}

/**
 * The markers Lilo understands, sorted into teaching order, with name and
 * alias lookup. `N` is the union of the canonical names; `with()` widens it,
 * so a plugin's marker is as typed as the built-in ones. One registry is
 * resolved in the composition root and passed to everything that reads markers.
 */
export class MarkerRegistry<N extends string = string> {
  private readonly byKey = new Map<string, MarkerDefinition<N>>();
  private readonly canonical = new Map<string, MarkerDefinition<N>>();

  /** Every marker, in teaching order. */
  readonly all: readonly MarkerDefinition<N>[];

  constructor(markers: readonly MarkerDefinition<N>[]) {
    // A stable sort: markers without an order keep the order they were given in, after the ordered ones.
    const all = [...markers].sort((a, b) => (a.teachOrder ?? Number.MAX_SAFE_INTEGER) - (b.teachOrder ?? Number.MAX_SAFE_INTEGER));
    this.all = all;
    for (const def of all) {
      if (this.canonical.has(def.name)) throw new Error(`marker ${def.name} is defined twice`);
      // Without its lookup a lookup marker would silently never be offered.
      if (def.offer === "lookup" && (def.kind !== "fetch" || !def.lookup)) throw new Error(`lookup marker ${def.name} names no lookup`);
      this.canonical.set(def.name, def);
    }
    // Canonical names win over aliases of other markers.
    for (const def of all) for (const a of def.aliases ?? []) if (!this.byKey.has(nameKey(a))) this.byKey.set(nameKey(a), def);
    for (const def of all) this.byKey.set(def.name, def);
  }

  /** The definition of a canonical name. */
  get(name: string): MarkerDefinition<N> | undefined {
    return this.canonical.get(name);
  }

  /** The definition a raw name stands for (canonical or alias), if any. */
  resolve(raw: string): MarkerDefinition<N> | undefined {
    return this.byKey.get(nameKey(raw));
  }

  /** Only canonical names count (a forgotten colon is accepted for those alone). */
  isCanonical(raw: string): boolean {
    return this.canonical.has(nameKey(raw));
  }

  /** Every folded spelling (names and aliases): a truncated head is stripped when it starts one. */
  spellings(): string[] {
    return [...this.byKey.keys()];
  }

  /** Canonical names in teaching order. */
  names(): N[] {
    return this.all.map((d) => d.name);
  }

  /** The markers offered in every chat (the lookup markers are added when this setup has them). */
  chatNames(): N[] {
    return this.all.filter((d) => d.offer === "chat").map((d) => d.name);
  }

  /** A registry with more markers (a feature of a test or a plugin), placed by their teachOrder, else after these. */
  with<M extends string>(...more: MarkerDefinition<M>[]): MarkerRegistry<N | M> {
    return new MarkerRegistry<N | M>([...this.all, ...more]);
  }
}
