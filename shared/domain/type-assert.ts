/**
 * Compile-time checks between types (response schemas against the view functions they describe).
 * `type _ = Assert<Equals<A, B>>` fails to compile unless A and B are the same type.
 */

/** Flattens a top-level intersection (`View & { key: string }`) into one object type. */
export type Simplify<T> = T extends object ? { [K in keyof T]: T[K] } : T;

/** Same type, property by property (optional, readonly and nullable included). */
export type Equals<A, B> = (<T>() => T extends Simplify<A> ? 1 : 2) extends <T>() => T extends Simplify<B>
  ? 1
  : 2
  ? true
  : false;

/** True when every A is a B. */
export type Extends<A, B> = [A] extends [B] ? true : false;

/** Accepts only `true`: wrap an Equals or Extends in it to make a mismatch a compile error. */
export type Assert<T extends true> = T;
