/**
 * A value built on first use and kept: what every function's module scope would otherwise build
 * at cold start whether or not the invocation needs it (Intl formatters with a time zone load
 * ICU data, zod schemas run their constructors). Not for values that must be rebuilt per call.
 */
export function once<T>(make: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = make();
      built = true;
    }
    return value;
  };
}
