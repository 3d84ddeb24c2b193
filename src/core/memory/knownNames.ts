/**
 * Names capture recognises as values of tool-like keys. Matching a known name is what lets "I use zsh"
 * count as a plain statement about the shell; an unknown word in the same shape is not guessed at.
 * Each entry is the display form; matching ignores case.
 */

export const knownOperatingSystems = [
  'Arch Linux', 'macOS', 'Mac OS', 'OS X', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Windows 11', 'Windows 10', 'Windows', 'WSL',
  'NixOS', 'Manjaro', 'Linux Mint', 'Pop!_OS', 'FreeBSD', 'ChromeOS', 'openSUSE', 'Gentoo', 'Arch',
];
export const knownEditors = [
  'Neovim', 'nvim', 'Vim', 'Emacs', 'VS Code', 'VSCode', 'Visual Studio Code', 'Visual Studio', 'Helix', 'Zed', 'Sublime Text',
  'Sublime', 'IntelliJ IDEA', 'IntelliJ', 'WebStorm', 'PyCharm', 'GoLand', 'Rider', 'CLion', 'Xcode', 'nano', 'Kakoune', 'Cursor', 'Fleet',
];
export const knownShells = ['bash', 'zsh', 'fish', 'nushell', 'PowerShell', 'pwsh', 'tcsh', 'ksh', 'xonsh', 'elvish'];
export const knownPackageManagers = ['pnpm', 'npm', 'yarn', 'bun', 'pip', 'poetry', 'uv', 'conda', 'pipenv', 'cargo', 'composer', 'bundler'];
/** The package managers "I use X" alone is enough for (for the others the word names a language tool too). */
export const javascriptPackageManagers = ['pnpm', 'npm', 'yarn', 'bun'];
export const knownTestFrameworks = [
  'vitest', 'jest', 'mocha', 'jasmine', 'pytest', 'unittest', 'RSpec', 'JUnit', 'TestNG', 'xUnit', 'NUnit', 'Cypress', 'Playwright',
  'AVA', 'node:test', 'Catch2', 'GoogleTest', 'ExUnit',
];
/** Languages are matched case-sensitively when the name is also an English word ("Go", "C"). */
export const knownLanguages = [
  'TypeScript', 'JavaScript', 'Python', 'Rust', 'Go', 'Golang', 'Java', 'Kotlin', 'Swift', 'C++', 'C#', 'C', 'Ruby', 'PHP', 'Elixir',
  'Erlang', 'Haskell', 'Scala', 'Clojure', 'OCaml', 'F#', 'Dart', 'Lua', 'Zig', 'Nim', 'R', 'Julia', 'Perl', 'SQL', 'Objective-C',
  'Crystal', 'Gleam', 'Bash',
];
export const caseSensitiveLanguages = new Set(['Go', 'C', 'R', 'Nim', 'Dart', 'Swift', 'Rust', 'Crystal', 'Julia']);
export const knownFrameworks = [
  'React Native', 'React', 'Svelte', 'SvelteKit', 'Vue', 'Nuxt', 'Angular', 'Solid', 'Next.js', 'Next', 'Django', 'Flask', 'FastAPI',
  'Ruby on Rails', 'Rails', 'Spring Boot', 'Spring', 'Express', 'NestJS', 'Laravel', 'Symfony', 'Phoenix', 'Remix', 'Astro', 'Gatsby',
  'Ember', 'Qwik', 'htmx', 'Tailwind', 'Bootstrap', 'jQuery', 'Flutter', 'Electron', 'Tauri', 'PyTorch', 'TensorFlow', 'pandas',
  'NumPy', 'Gin', 'Actix', 'Axum', 'Rocket', 'Bevy', '.NET', 'ASP.NET',
];
export const knownDiets = ['vegetarian', 'vegan', 'pescatarian', 'gluten-free', 'kosher', 'halal', 'keto'];

/** Words that look like a name after "I'm" but are states ("I'm Confused") or placeholders. */
export const notNames = new Set(
  ['test', 'foo', 'bar', 'admin', 'root', 'user', 'ollama', 'engram', 'iris', 'here', 'back', 'done', 'sorry', 'sure', 'fine', 'good',
    'new', 'stuck', 'confused', 'lost', 'using', 'running', 'trying', 'working', 'looking', 'not', 'just', 'still', 'also', 'so', 'on',
    'in', 'at', 'a', 'an', 'the'].map((word) => word.toLowerCase()),
);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Finds the known names in `text`, longest first so "Arch Linux" wins over "Linux"; returns display forms
 * in the order they appear.
 */
/** One pattern per list, longest names first so "Arch Linux" wins over "Linux"; compiled once (capture runs it on every clause). */
const listPatterns = new WeakMap<readonly string[], { pattern: RegExp; byLowerCase: Map<string, string> }>();

function patternOf(names: readonly string[]): { pattern: RegExp; byLowerCase: Map<string, string> } {
  let compiled = listPatterns.get(names);
  if (!compiled) {
    const sorted = [...names].sort((a, b) => b.length - a.length);
    compiled = {
      pattern: new RegExp(`(?<![\\w+#.-])(?:${sorted.map(escape).join('|')})(?![\\w+#-]|\\.\\w)`, 'gi'),
      byLowerCase: new Map(sorted.map((name) => [name.toLowerCase(), name])),
    };
    listPatterns.set(names, compiled);
  }
  return compiled;
}

/** Finds the known names in `text` and returns their display forms in the order they appear. */
export function findKnown(text: string, names: readonly string[], caseSensitive: ReadonlySet<string> = new Set()): string[] {
  const { pattern, byLowerCase } = patternOf(names);
  const found: string[] = [];
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const name = byLowerCase.get(match[0].toLowerCase());
    // A name that is also an English word ("Go", "C") counts only as written.
    if (name && (!caseSensitive.has(name) || match[0] === name)) found.push(name);
  }
  return found;
}
