/** `true` when A and B are the same type (each assignable to the other), for compile-time checks. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
