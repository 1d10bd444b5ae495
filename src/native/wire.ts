/**
 * Property bags between the gRPC `Struct` the engine sends and the core's plain bags. The
 * engine marks secrets with Pulumi's envelope (the provider accepts secrets in `Configure`);
 * the core takes plain values plus the names of the top-level args that held a secret
 * (`__secretArgs`, the same bookkeeping the dynamic face's resource class adds), and answers
 * copies of them in the same envelope, which goes back on the wire unchanged.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { asSecret, isSecretEnvelope } from "../core/markers";

type Bag = Record<string, unknown>;

/** A value with every secret envelope removed, and whether there was one anywhere inside. */
function unwrap(v: unknown): { value: unknown; secret: boolean } {
  if (Array.isArray(v)) {
    const items = v.map(unwrap);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (v && typeof v === "object") {
    const o = v as Bag;
    if (isSecretEnvelope(o)) return { value: unwrap(o.value).value, secret: true };
    const entries = Object.entries(o).map(([k, x]) => [k, unwrap(x)] as const);
    return {
      value: Object.fromEntries(entries.map(([k, u]) => [k, u.value])),
      secret: entries.some(([, u]) => u.secret),
    };
  }
  return { value: v, secret: false };
}

/** A Struct as a plain bag, and the sorted names of its top-level keys that held a secret. */
export function fromStruct(s: Struct | undefined): { props: Bag; secretRoots: string[] } {
  const raw = (s?.toJavaScript() ?? {}) as Bag;
  const props: Bag = {};
  const secretRoots: string[] = [];
  for (const [k, v] of Object.entries(raw)) {
    const u = unwrap(v);
    props[k] = u.value;
    if (u.secret) secretRoots.push(k);
  }
  return { props, secretRoots: secretRoots.sort() };
}

/** A core answer (plain values and secret envelopes) as a Struct; `undefined` values dropped. */
export function toStruct(bag: Bag | undefined): Struct {
  return Struct.fromJavaScript(JSON.parse(JSON.stringify(bag ?? {})));
}

/** Inputs as the core's lifecycle takes them: the user's args plus the face's bookkeeping. */
export function coreNews(s: Struct | undefined, urn: string): Bag {
  const { props, secretRoots } = fromStruct(s);
  return { ...props, __resource: urn, ...(secretRoots.length > 0 ? { __secretArgs: secretRoots } : {}) };
}

/** The face's bookkeeping in a core bag, never given back to the engine as inputs. */
const FACE_KEYS = new Set(["__resource", "__secretArgs"]);

/**
 * A core bag of inputs as the engine takes them back: the face's bookkeeping dropped, and each
 * top-level value under `secretRoots` (the args the engine sent as secrets) a secret again.
 */
export function engineInputs(bag: Bag, secretRoots: readonly string[]): Bag {
  const roots = new Set(secretRoots);
  return Object.fromEntries(
    Object.entries(bag)
      .filter(([k, v]) => !FACE_KEYS.has(k) && v !== undefined)
      .map(([k, v]) => [k, roots.has(k) ? asSecret(v) : v]),
  );
}

/** Recorded outputs as the core's lifecycle takes them (they carry their own `__secretArgs`). */
export function coreOlds(s: Struct | undefined): Bag {
  return fromStruct(s).props;
}
