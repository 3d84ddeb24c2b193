import assert from 'node:assert/strict';
import { attributeCorrection, detectCorrection, voices } from '../../src/core/memory/correctionShapes';

const asked = 'How are you finding it compared to your work at Northwind Labs?';

describe('corrections: narrow matching and attribution', () => {
  it('matches the seed correction and names what it rejects', () => {
    const match = detectCorrection("I left Northwind last month, remember? I'm at Calico now.", asked);
    assert.ok(match);
    assert.equal(match.named, 'Northwind');
  });

  it('needs the assistant turn it rejects: unprompted, it is an ordinary statement', () => {
    assert.equal(detectCorrection('I left Northwind last month, remember?', undefined), undefined);
  });

  it('reads a refinement as a refinement, and plain "no" as nothing', () => {
    assert.equal(detectCorrection('Still no meat, but pescatarian now.', 'Here is a menu with no meat.'), undefined);
    assert.equal(detectCorrection('No, use tabs in that file.', 'Here is the code with spaces.'), undefined);
    assert.ok(detectCorrection("I'm not at Fernhill any more.", 'Your Fernhill repo…'));
    assert.ok(detectCorrection('That was true, not anymore.', 'You use npm.'));
  });

  it('the broad stretch fires on any "no", refinements included', () => {
    assert.ok(detectCorrection('Still no meat, but pescatarian now.', 'Here is a menu with no meat.', { broad: true }));
  });

  it('attributes to the belief the assistant voiced, preferring what its prompt carried; otherwise asks', () => {
    const live = [
      { id: 'e', key: 'employer', value: 'Northwind Labs', retrieved: true },
      { id: 'l', key: 'location', value: 'Leeds', retrieved: true },
    ];
    const match = { shape: 'remember?', named: 'Northwind' };
    assert.equal(attributeCorrection(match, asked, live)?.id, 'e');
    assert.equal(attributeCorrection({ shape: 'remember?' }, 'Nothing about you here.', live), undefined, 'nothing voiced: nothing retired');
    const twoVoiced = 'Your Northwind Labs team in Leeds';
    assert.equal(attributeCorrection({ shape: 'remember?' }, twoVoiced, live), undefined, 'ambiguous: the user is asked');
    assert.ok(voices(asked, 'Northwind Labs') && !voices(asked, 'Calico'));
  });
});
