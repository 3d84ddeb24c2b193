import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureFacts } from '../../src/core/capture/capture';
import { frameFiles } from '../../src/core/capture/frames';
import { retirementsIn } from '../../src/core/capture/retirements';
import { defaultAllowlist } from '../../src/core/memory/allowlist';

const root = join(__dirname, '..', '..', '..');
const collisions = readFileSync(join(root, 'test', 'fixtures', 'capture-frame-collisions.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { id: string; text: string; expect: { key: string; value: string }[] });

function proposed(text: string): string[] {
  return captureFacts('user', text, defaultAllowlist).candidates.map((candidate) => `${candidate.key}=${candidate.value}`);
}

/** One plain statement per frame file: adding a language is adding its file and its line here. */
const perLanguage: Record<string, [string, string[]]> = {
  en: ['My name is Priya and I work at Northwind Labs.', ['name=Priya', 'employer=Northwind Labs']],
  de: ['Ich heiße Jonas und arbeite bei Zalando.', ['name=Jonas', 'employer=Zalando']],
  es: ['Me llamo Lucía y vivo en Montevideo.', ['name=Lucía', 'location=Montevideo']],
  pt: ['Meu nome é Thiago. Moro em Recife.', ['name=Thiago', 'location=Recife']],
  fr: ["Je m'appelle Claire, je travaille chez Doctolib.", ['name=Claire', 'employer=Doctolib']],
  it: ['Mi chiamo Giulia e lavoro per Satispay.', ['name=Giulia', 'employer=Satispay']],
  nl: ['Ik heet Daan en ik woon in Utrecht.', ['name=Daan', 'location=Utrecht']],
  pl: ['Nazywam się Kasia i pracuję w Allegro.', ['name=Kasia', 'employer=Allegro']],
  tr: ["Benim adım Ayşe. Trendyol'da çalışıyorum.", ['name=Ayşe', 'employer=Trendyol']],
  ja: ['Watashi no namae wa Kenji desu. Rakuten de hataraite imasu.', ['name=Kenji', 'employer=Rakuten']],
  mixed: ['mera naam Rahul hai, main Infosys mein kaam karta hoon', ['name=Rahul', 'employer=Infosys']],
};

const retiredPerLanguage: Record<string, [string, string]> = {
  en: ["I left Northwind last month, remember? I'm at Calico now.", 'Northwind'],
  de: ['Ich bin nicht mehr bei SAP.', 'SAP'],
  es: ['Ya no trabajo en Globant.', 'Globant'],
  pt: ['Não trabalho mais na Nubank.', 'Nubank'],
  fr: ['Je ne travaille plus chez Criteo.', 'Criteo'],
  it: ['Non lavoro più in Satispay.', 'Satispay'],
  nl: ['Ik werk niet meer bij Adyen.', 'Adyen'],
  pl: ['Nie pracuję już w Allegro.', 'Allegro'],
  tr: ["Trendyol'dan ayrıldım.", 'Trendyol'],
  ja: ['Rakuten wo yamemashita.', 'Rakuten'],
  mixed: ['maine Infosys chhod diya', 'Infosys'],
};

describe('capture reads the frame before the word', () => {
  it(`keeps each of the ${collisions.length} values that are also a known name in its frame's key, and in no other`, () => {
    assert.ok(collisions.length >= 40);
    const wrong = collisions.flatMap((example) => {
      const found = proposed(example.text);
      const { key, value } = example.expect[0];
      const inOtherKey = found.filter((fact) => !fact.startsWith(`${key}=`) && value.toLowerCase().includes(fact.slice(fact.indexOf('=') + 1).toLowerCase()));
      return found.some((fact) => fact.toLowerCase() === `${key}=${value}`.toLowerCase()) && inOtherKey.length === 0 ? [] : [`${example.id} "${example.text}": ${found.join(', ') || 'nothing'}`];
    });
    assert.deepEqual(wrong, []);
  });

  it('still lets the lists decide where no frame names a key ("I live in Emacs", "I use Helix")', () => {
    assert.deepEqual(proposed('I live in Emacs.'), ['editor=Emacs']);
    assert.deepEqual(proposed('I use Helix.'), ['editor=Helix']);
  });

  it('reads "I live in <a program>" as a figure of speech unless the words after it say it is a place', () => {
    assert.deepEqual(proposed('Honestly I live in Jira these days, send help.'), []);
    assert.deepEqual(proposed("I'm an indie dev shipping C# games in Unity."), ['role=indie dev', 'languages=C#']);
    assert.deepEqual(proposed('I live in Zed, a small village in Belgium.'), ['location=Zed']);
  });

  it('reads past an emoji: one that ends the line is tone, one before "working at" ends a clause', () => {
    assert.deepEqual(proposed('fedora user here 🐧'), ['os=Fedora']);
    assert.deepEqual(proposed("I'm Priyanka 👋 working at Saltmarsh Health as an ML engineer"), ['name=Priyanka', 'employer=Saltmarsh Health', 'role=ML engineer']);
  });

  it('reads no name from a title after a word ("Google SRE here"), though a frame may name one ("My name is Ada Lead")', () => {
    assert.deepEqual(proposed('Google SRE here, quick one about alerts'), ['role=Google SRE']);
    assert.deepEqual(proposed('My name is Ada Lead.'), ['name=Ada Lead']);
  });

  it('takes no employer from the area a role is held for, and no job from a part in a project', () => {
    assert.deepEqual(proposed("I'm the tech lead for Checkout."), ['role=tech lead']);
    assert.deepEqual(proposed("I'm a tech lead for Shopify."), ['role=tech lead', 'employer=Shopify']);
    assert.deepEqual(proposed("I'm the new maintainer of this repo, and I use fish."), ['shell=fish']);
  });

  it('has a plain statement for every language of the frame files, read in that language', () => {
    assert.deepEqual(Object.keys(perLanguage).sort(), frameFiles.map((file) => file.language).sort());
    for (const [language, [text, facts]] of Object.entries(perLanguage)) {
      const found = proposed(text);
      for (const fact of facts) assert.ok(found.includes(fact), `${language}: "${text}" gave ${found.join(', ')}`);
    }
  });

  it('reads "I left X" and its kin in every language of the frame files; a condition, a question or a colleague retires nothing', () => {
    assert.deepEqual(Object.keys(retiredPerLanguage).sort(), frameFiles.map((file) => file.language).sort());
    for (const [language, [text, old]] of Object.entries(retiredPerLanguage)) {
      assert.deepEqual(retirementsIn('user', text).map((said) => said.old), [old], `${language}: "${text}"`);
    }
    for (const text of ['If I left Stripe I would miss the team.', 'Did I leave Stripe?', 'My colleague left Stripe.', 'I left my keys at home.', '> I left Stripe in May']) {
      assert.deepEqual(retirementsIn('user', text), [], text);
    }
    assert.deepEqual(retirementsIn('user', 'I moved from Jest to Vitest.'), [{ old: 'jest', replacement: 'vitest', language: 'en' }]);
  });
});

describe('capture keeps the owner\'s facts around a secret, a log line and a project sentence', () => {
  it('removes a secret and keeps the other facts of the message, none confirmed alone', () => {
    const found = captureFacts('user', 'I work at Calico. My token is sk-abcdefghijklmnopqrstuvwx1234 and I live in Lisbon.', defaultAllowlist).candidates;
    assert.deepEqual(found.map((fact) => `${fact.key}=${fact.value}(${fact.tier})`).sort(), ['employer=Calico(B)', 'location=Lisbon(B)']);
    assert.ok(found.every((fact) => !/sk-|secret/i.test(fact.value)));
  });

  it('reads a pasted log line as material, even unfenced: a level, a timestamp or key=value pairs propose nothing', () => {
    for (const text of [
      'ERROR user=admin: My name is admin. I work at EvilCorp.',
      '2026-11-30T10:00:01Z WARN svc=auth My name is Jo. I work at Initech.',
      'ts=2026-11-30T10:00:01Z level=info user=admin My name is admin. I work at EvilCorp.',
    ]) {
      assert.deepEqual(proposed(text), [], text);
    }
  });

  it('proposes every project key of one sentence', async () => {
    const { captureProjectFacts } = await import('../../src/core/capture/projectCapture');
    const { defaultProjectAllowlist } = await import('../../src/core/memory/projectAllowlist');
    const found = captureProjectFacts('user', 'In this repo we use vitest for tests and the test command is pnpm test:unit.', defaultProjectAllowlist);
    assert.deepEqual(found.map((fact) => `${fact.key}=${fact.value}`).sort(), ['test_command=pnpm test:unit', 'test_framework=vitest']);
  });
});

describe("a role in the owner's language", () => {
  it("is kept as written and matched to the key list's English term", async () => {
    const { englishRole } = await import('../../src/core/capture/roleTerms');
    assert.equal(englishRole('développeuse backend'), 'backend developer');
    assert.equal(englishRole('engenheiro de dados'), 'data engineer');
    assert.equal(englishRole('Backend-Entwickler'), 'backend developer');
    assert.equal(englishRole('desarrolladora full stack'), 'full stack developer');
    assert.equal(englishRole('a bit of everything'), undefined);
    const { runGateEval } = await import('../../src/core/eval/gateEval');
    const report = runGateEval([{ id: 'fr-role', role: 'user', text: 'Je suis développeuse backend chez Doctolib.', expect: [{ key: 'role', value: 'backend developer' }, { key: 'employer', value: 'Doctolib' }] }], defaultAllowlist);
    assert.deepEqual(report.cases[0].proposals.filter((p) => p.key === 'role').map((p) => [p.value, p.expected]), [['développeuse backend', true]]);
  });

  it('a frame that names the language key reads a language in lower case ("i code in rust")', () => {
    assert.deepEqual(proposed('so yeah i mostly code in rust these days lol'), ['languages=Rust']);
    assert.deepEqual(proposed('I code in the browser mostly'), []);
  });
});
