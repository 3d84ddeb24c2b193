/**
 * Names capture recognises as values of tool-like keys. Matching a known name is what lets "I use zsh"
 * count as a plain statement about the shell; an unknown word in the same shape is not guessed at.
 * Each entry is the display form; matching ignores case.
 */

export const knownOperatingSystems = [
  'Arch Linux', 'macOS', 'Mac OS', 'OS X', 'Mac', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Windows', 'WSL2', 'WSL',
  'NixOS', 'Manjaro', 'Linux Mint', 'Pop!_OS', 'FreeBSD', 'ChromeOS', 'openSUSE', 'Gentoo', 'Arch', 'EndeavourOS', 'Alpine', 'Kubuntu', 'Asahi Linux',
];
export const knownEditors = [
  'Neovim', 'nvim', 'Vim', 'Emacs', 'VS Code', 'VSCode', 'Visual Studio Code', 'Visual Studio', 'Helix', 'Zed', 'Sublime Text',
  'Sublime', 'IntelliJ IDEA', 'IntelliJ', 'WebStorm', 'PyCharm', 'GoLand', 'Rider', 'CLion', 'Xcode', 'nano', 'Kakoune', 'Cursor', 'Fleet',
  'Android Studio', 'Eclipse', 'Notepad++', 'RubyMine', 'PhpStorm', 'DataGrip', 'Spacemacs', 'Windsurf', 'JupyterLab', 'RStudio', 'Positron',
];
export const knownShells = ['Git Bash', 'bash', 'zsh', 'fish', 'nushell', 'PowerShell', 'pwsh', 'tcsh', 'ksh', 'xonsh', 'elvish'];
export const knownPackageManagers = [
  'pnpm', 'npm', 'yarn', 'bun', 'pip', 'poetry', 'uv', 'conda', 'mamba', 'pipenv', 'pipx', 'pdm', 'cargo', 'composer', 'bundler', 'Homebrew',
  'brew', 'Maven', 'Gradle', 'NuGet', 'vcpkg', 'Conan',
];
/** The package managers "I use X" alone is enough for (for the others the word names a language tool too). */
export const javascriptPackageManagers = ['pnpm', 'npm', 'yarn', 'bun'];
export const knownTestFrameworks = [
  'vitest', 'jest', 'mocha', 'jasmine', 'pytest', 'unittest', 'RSpec', 'JUnit', 'TestNG', 'xUnit', 'NUnit', 'Cypress', 'Playwright',
  'AVA', 'node:test', 'Catch2', 'GoogleTest', 'ExUnit', 'Pest', 'PHPUnit', 'Minitest', 'Selenium', 'Karma', 'XCTest', 'Kotest', 'Testify',
  'Ginkgo', 'Robot Framework', 'Testing Library', 'WebdriverIO', 'Detox', 'Espresso', 'Hypothesis', 'doctest', 'Spock',
];
/** Languages are matched case-sensitively when the name is also an English word ("Go", "C"). */
export const knownLanguages = [
  'TypeScript', 'JavaScript', 'Python', 'Rust', 'Go', 'Golang', 'Java', 'Kotlin', 'Swift', 'C++', 'C#', 'C', 'Ruby', 'PHP', 'Elixir',
  'Erlang', 'Haskell', 'Scala', 'Clojure', 'OCaml', 'F#', 'Dart', 'Lua', 'Zig', 'Nim', 'R', 'Julia', 'Perl', 'SQL', 'Objective-C',
  'Crystal', 'Gleam', 'Bash', 'Solidity', 'Elm', 'Fortran', 'COBOL', 'MATLAB', 'Groovy', 'Assembly', 'Racket', 'Scheme', 'Common Lisp',
  'Lisp', 'Prolog', 'Ada', 'Pascal', 'Delphi', 'Visual Basic', 'VB.NET', 'Apex', 'ABAP', 'Mojo', 'V', 'TS', 'JS',
];
export const caseSensitiveLanguages = new Set(['Go', 'C', 'R', 'Nim', 'Dart', 'Swift', 'Rust', 'Crystal', 'Julia', 'Elm', 'Ada', 'Scheme', 'V', 'TS', 'JS', 'Mojo', 'Assembly', 'Pascal']);
export const knownFrameworks = [
  'React Native', 'React', 'Svelte', 'SvelteKit', 'Vue', 'Nuxt', 'Angular', 'Solid', 'Next.js', 'Next', 'Django', 'Flask', 'FastAPI',
  'Ruby on Rails', 'Rails', 'Spring Boot', 'Spring', 'Express', 'NestJS', 'Laravel', 'Symfony', 'Phoenix', 'Remix', 'Astro', 'Gatsby',
  'Ember', 'Qwik', 'htmx', 'Tailwind', 'Bootstrap', 'jQuery', 'Flutter', 'Electron', 'Tauri', 'PyTorch', 'TensorFlow', 'pandas',
  'NumPy', 'Gin', 'Actix', 'Axum', 'Rocket', 'Bevy', '.NET', 'ASP.NET', 'ASP.NET Core', 'tRPC', 'Prisma', 'SQLAlchemy', 'Django REST Framework', 'DRF',
  'dbt', 'RxJS', 'Jetpack Compose', 'SwiftUI', 'UIKit', 'PySpark', 'Apache Spark', 'WordPress', 'Pydantic', 'Redux', 'Vuex', 'Pinia', 'Koa',
  'Hono', 'Fastify', 'Quarkus', 'Micronaut', 'Ktor', 'Hibernate', 'Sinatra', 'Blazor', 'Entity Framework', 'Godot', 'Qt',
  'Preact', 'Ionic', 'Keras', 'scikit-learn', 'JAX', 'LangChain', 'Polars', 'Airflow', 'Celery', 'Streamlit', 'Leptos',
  'Alpine.js', 'Three.js', 'D3', 'Chakra UI', 'shadcn/ui', 'Drupal', 'Strapi', 'Deno', 'Node.js', 'Hugging Face',
  'GraphQL', 'Sequelize', 'TypeORM', 'Drizzle', 'Mongoose', 'Zod', 'Riverpod', 
];
export const knownDiets = ['vegetarian', 'vegan', 'pescatarian', 'pescetarian', 'gluten-free', 'kosher', 'halal', 'keto', 'paleo', 'dairy-free', 'lactose-free', 'plant-based'];

/**
 * Spellings of one name shown the one way ("vscode" is VS Code, "nvim" is Neovim): a fact is stored once, whatever
 * way the owner typed it.
 */
const canonicalSpelling = new Map<string, string>([
  ['vscode', 'VS Code'], ['visual studio code', 'VS Code'], ['nvim', 'Neovim'], ['golang', 'Go'], ['pwsh', 'PowerShell'],
  ['mac os', 'macOS'], ['os x', 'macOS'], ['mac', 'macOS'], ['pescetarian', 'pescatarian'], ['brew', 'Homebrew'], ['sublime', 'Sublime Text'], ['django rest framework', 'DRF'], ['wsl2', 'WSL'],
]);

/** Every way of writing a name that is shown as `value` ("mac" and "mac os" for macOS), the shown form first. */
export function spellingsOf(value: string): string[] {
  return [value, ...[...canonicalSpelling].filter(([, shown]) => shown === value).map(([written]) => written)];
}

/** Words that look like a name after "I'm" but are states ("I'm Confused") or placeholders. */
export const notNames = new Set(
  ['test', 'foo', 'bar', 'admin', 'root', 'user', 'ollama', 'engram', 'iris', 'here', 'back', 'done', 'sorry', 'sure', 'fine', 'good',
    'new', 'stuck', 'confused', 'lost', 'using', 'running', 'trying', 'working', 'looking', 'not', 'just', 'still', 'also', 'so', 'on',
    'in', 'at', 'a', 'an', 'the',
    // What a program prints where a name is missing, and the words "call me" takes for a time, not a name.
    'null', 'nil', 'undefined', 'none', 'anonymous', 'anon', 'nobody', 'unknown', 'anytime', 'anyday', 'tomorrow', 'later', 'tonight', 'now',
    // Articles of the frames' other languages ("me llamo la atención" is no name).
    'la', 'el', 'los', 'las', 'les', 'il', 'der', 'die', 'das', 'een', 'het'].map((word) => word.toLowerCase()),
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
      // A name ends where the word does, in any alphabet: "Cádiz" holds no C, "Goiânia" no Go.
      pattern: new RegExp(`(?<![\\p{L}\\p{N}_+#.-])(?:${sorted.map(escape).join('|')})(?![\\p{L}\\p{N}_+#-]|\\.[\\p{L}\\p{N}_])`, 'giu'),
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
    if (name && (!caseSensitive.has(name) || match[0] === name)) found.push(canonicalSpelling.get(name.toLowerCase()) ?? name);
  }
  return found;
}
