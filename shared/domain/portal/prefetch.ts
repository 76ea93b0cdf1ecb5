/**
 * A portal action starts every read it will need at once (the configuration, the subscription,
 * the card, the customer), so that the DynamoDB adapter sends them as one BatchGetItem (issue 17),
 * and still answers in the order the checks come: the configuration's 403 and 400 before the
 * subscription's 404. These two helpers keep that order and hand the reads to the use cases that
 * would otherwise read the same items again.
 */

/** A read started now; its failure is thrown where it is taken, not where it started. */
export function early<T>(read: Promise<T>): () => Promise<T> {
  const settled = read.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return async () => {
    const result = await settled;
    if (!result.ok) throw result.error;
    return result.value;
  };
}

/**
 * `repo` whose `method` answers `value` once, for the arguments `matches` accepts (the item this
 * request already read); every other call, and a second one, reaches `repo` itself.
 */
export function knowing<R extends object, M extends keyof R>(
  repo: R,
  method: M,
  matches: (...args: never[]) => boolean,
  value: unknown,
): R {
  let served = false;
  return new Proxy(repo, {
    get(target, prop) {
      const member = Reflect.get(target, prop, target);
      if (typeof member !== 'function') return member;
      if (prop !== method) return member.bind(target);
      return (...args: never[]) => {
        if (served || !matches(...args)) return member.apply(target, args);
        served = true;
        return Promise.resolve(value);
      };
    },
  });
}
