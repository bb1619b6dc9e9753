/** Light, dark or the system's choice, remembered per computer. */
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'voicescope.theme';

export const storedTheme = (): ThemeChoice => {
  const v = localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
};

export const applyTheme = (t: ThemeChoice) => {
  if (t === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', t);
  localStorage.setItem(KEY, t);
};

export const applyStoredTheme = () => applyTheme(storedTheme());
