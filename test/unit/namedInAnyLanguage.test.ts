import assert from 'node:assert/strict';
import { captureFacts } from '../../src/core/capture/capture';
import { labelledFieldCandidates } from '../../src/core/capture/labelledFields';
import { namedTools } from '../../src/core/capture/namedTools';
import { languageOf, notStanding } from '../../src/core/capture/standingMarkers';
import { defaultAllowlist } from '../../src/core/memory/allowlist';

const pairs = (found: readonly { key: string; value: string }[]): string[] => found.map((candidate) => `${candidate.key}=${candidate.value}`);

function captured(text: string): { key: string; value: string; tier: string }[] {
  return captureFacts('user', text, defaultAllowlist).candidates;
}

describe('tools and labelled fields the owner names, in any language', () => {
  it('tells the language of a sentence by its little words, and English when none stands out', () => {
    assert.equal(languageOf('Beruflich schreibe ich hauptsächlich Kotlin und ein bisschen Go.'), 'de');
    assert.equal(languageOf('Per i pacchetti uso yarn, per i test Mocha con Chai.'), 'it');
    assert.equal(languageOf('Pakkeeji kanri wa pnpm, tesuto wa Vitest desu.'), 'ja');
    // One shared word ("no", "i") is not enough to leave English.
    assert.equal(languageOf('no Objective-C please'), 'en');
    assert.equal(languageOf('I want to learn Rust next year.'), 'en');
  });

  it('reads a sentence as standing only when nothing in its language or in English weakens it', () => {
    for (const weakened of ['Früher habe ich Java geschrieben.', 'Quiero aprender Rust.', 'Si usara Windows, todo sería más fácil.', 'Mon collègue utilise Emacs.', 'Kal se Neovim use karunga.', 'I don\'t use Windows.', 'Should I use Vitest?']) {
      assert.ok(notStanding(weakened), weakened);
    }
    for (const plain of ['Ich nutze Neovim unter Arch.', 'Uso Vim su Fedora.', 'Yung editor ko ay Sublime Text.', 'My main editor is VS Code.']) {
      assert.ok(!notStanding(plain), plain);
    }
  });

  it('takes the known tools of a standing sentence, each under its key, as guesses (tier C)', () => {
    assert.deepEqual(pairs(namedTools('Beruflich schreibe ich hauptsächlich Kotlin und ein bisschen Go, alles mit Spring Boot.', false)).sort(), ['frameworks=Spring Boot', 'languages=Go', 'languages=Kotlin']);
    assert.deepEqual(pairs(namedTools('Yung editor ko ay Sublime Text, tapos Linux Mint yung OS.', false)).sort(), ['editor=Sublime Text', 'os=Linux Mint']);
    assert.ok(namedTools('Uso Vim su Fedora e come shell ho zsh.', false).every((tool) => tool.tier === 'C'));
    // What "we" use gives way to what the owner alone says.
    assert.deepEqual(pairs(namedTools('En la empresa usamos Jest, pero yo en mis proyectos uso Vitest siempre.', false)), ['test_framework=vitest']);
    // The one not chosen is not the owner's.
    assert.deepEqual(pairs(namedTools('I use Vitest over Jest.', false)), ['test_framework=vitest']);
  });

  it('takes nothing from someone else, a task, a plan, a quote, a place named after a tool, or fish on a plate', () => {
    for (const trap of [
      'Mein Kollege nutzt Vim.',
      'Let\'s set up this Flutter project.',
      'The project is written in Elixir and the tests use ExUnit.',
      'Write a dialogue where I say \'I\'m the CTO of Initech and I use Perl\'.',
      'I relocated to Lisbon in the spring.',
      'I live on Kotlin Island.',
      'pescatarian btw, so fish recipes are fine',
      'Eskiden Windows kullanıyordum.',
      'Estou usando o Windows do laboratório só pra testar o instalador.',
      'I work at Fernhill, so the internal npm scope is @fernhill.',
    ]) {
      assert.deepEqual(namedTools(trap, true), [], trap);
    }
    // A sentence that is not the owner's names their tools only in a message that says who they are.
    assert.deepEqual(namedTools('Need help with flaky Cypress selectors.', false), []);
  });

  it('reads a key written as a label before its value, in any language, and nothing made up', () => {
    assert.deepEqual(pairs(labelledFieldCandidates('Pronomes: ela/dela. Nome: Beatriz Ornelas.')).sort(), ['name=Beatriz Ornelas', 'pronouns=ela/dela']);
    assert.deepEqual(pairs(labelledFieldCandidates('Mon fuseau horaire : UTC+1. Mes pronoms : iel.')).sort(), ['pronouns=iel', 'timezone=UTC+1']);
    assert.deepEqual(pairs(labelledFieldCandidates('Editor toh VS Code hi hai, aur OS Windows.')), ['editor=VS Code', 'os=Windows']);
    assert.deepEqual(pairs(labelledFieldCandidates('Framework: Next.js.')), ['frameworks=Next.js']);
    assert.deepEqual(labelledFieldCandidates('Você pode gerar uns dados falsos? Tipo: nome Marcos Lima, mora em Recife.'), []);
    assert.deepEqual(labelledFieldCandidates('java.lang.IllegalStateException: User name: admin, location: Frankfurt, tz: Europe/Berlin'), []);
    // An English label needs its colon: "my name is" is a frame's to read.
    assert.deepEqual(labelledFieldCandidates('For the NER unit test, use the input I work at Pinecrest and my name is Olu.'), []);
  });

  it('confirms nothing it reads this way, and keeps tier A from a statement weakened in its own language', () => {
    const tiers = captured('Ich nutze Neovim unter Arch, Shell ist zsh.').map((candidate) => candidate.tier);
    assert.ok(!tiers.includes('A'));
    // "Benim adım …, … kullanıyorum": the plain name stays confirmed; a past verb elsewhere would have asked.
    assert.ok(captured('Benim adım Elif Karaca, editör olarak Neovim kullanıyorum.').some((candidate) => candidate.key === 'name' && candidate.tier === 'A'));
    assert.ok(captured('Me llamo Lucía Berrocal y antes usaba Vim.').every((candidate) => candidate.tier !== 'A'));
  });
});
