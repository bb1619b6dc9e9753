import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `ms` (typing in a search box asks the main process once, not per key). */
export const useDebounced = <T>(value: T, ms = 250): T => {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
};
