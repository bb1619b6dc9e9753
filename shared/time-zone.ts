/**
 * Whether a name is an IANA time zone the runtime knows (Europe/Berlin, UTC, …). A blank is never a time
 * zone; where a blank means "not given", the caller says so before asking.
 */
export const isTimeZone = (name: string): boolean => {
  if (name.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};
