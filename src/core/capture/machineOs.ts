import type { Candidate } from './candidate';
import { toolsIn } from './passingShapes';

/**
 * The owner's machine, named where the system is meant: "I'm on a MacBook for everything", "My setup: MacBook Pro,
 * fish in iTerm", "…and build on a MacBook" say macOS; "on my thinkpad with arch + sway", "a ThinkPad running Fedora"
 * say the system named after the machine. Only the owner's own machine counts (someone's MacBook, one borrowed, one
 * wished for, one that was, say nothing of theirs, nor one used for the day), and an Apple machine says nothing when the sentence names another
 * system. Asked about (tier B): a machine is a clue to the system, not the owner saying it.
 */

const appleMachine = String.raw`(?:(?:new|old|work|personal|trusty|company|m[1-4](?:\s+(?:pro|max))?|1[3-6](?:["”]|-inch| inch)?)\s+)*(?:macbook(?:\s+(?:pro|air))?|imac|mac\s+(?:mini|studio|pro))`;
const otherMachine = String.raw`(?:(?:new|old|work|personal|trusty|company)\s+)*(?:thinkpad|xps|dell|framework(?:\s+laptop)?|surface(?:\s+(?:book|laptop|pro))?|laptop|desktop|workstation|pc|box|machine|rig)(?:\s+[\w-]{1,8}\d[\w-]*)?`;
/** Words that make the machine the owner's: "I'm on a …", "I code on my …", "on my …", "My setup: …". */
const owned = String.raw`(?:\bi(?:['’]m|\s+am|m)?\s+(?:(?:mostly|mainly|usually|always)\s+)?(?:on|using|use|have|got|run|daily[- ]drive|code on|work on|build on|develop on|program on)\s+(?:an?|my)\s+|\bon\s+my\s+|^(?:my\s+)?(?:setup|machine|laptop|hardware|rig|gear|kit)\s*(?:is|:)\s*(?:an?\s+)?|^i\b[^.;!?]*?\b(?:code|work|build|develop|program)\s+on\s+(?:an?|my)\s+)`;
const appleShape = new RegExp(`${owned}${appleMachine}\\b`, 'i');
const runningShape = new RegExp(`${owned}${otherMachine}\\s+(?:running|with|on)\\s+([\\p{L}!_.]+(?:\\s+[\\p{L}\\d!_.]+)?)`, 'iu');
/** What makes a sentence speak of a machine not the owner's now: someone else's, a borrowed one, a past or a wished one. */
const notTheirsNow =
  /\b(?:borrow\w*|sister|brother|partner|friend|teammate|colleague|coworker|wife|husband|mom|mum|dad|roommate|flatmate|boss|manager|client|used to|was|were|no longer|not|never|if|unless|until|instead|want|wish|thinking of|getting|buy|buying|considering|should|would|could|might|maybe|pretend|imagine|example|today|tonight|this (?:week|month|morning|afternoon|evening|weekend)|for now|right now|at the moment|temporarily|for a (?:bit|while|few days)|until)\b|n['’]t\b|\bmy\s+\p{L}+['’]s\b/iu;

/** The system the owner's machine says, for each sentence of their own words that names one. */
export function machineOsCandidates(ownText: string): Candidate[] {
  for (const sentence of ownText.split(/(?<=[.!?;])\s+|\n+/)) {
    const text = sentence.trim();
    if (!text || notTheirsNow.test(text)) continue;
    const running = runningShape.exec(text);
    if (running) {
      const os = toolsIn(running[1], new Set(['os']))[0];
      if (os) return [{ key: 'os', value: os.value, tier: 'B' }];
    }
    if (!appleShape.test(text)) continue;
    // "on a MacBook, but the servers are Ubuntu": another system named beside it is the one to ask about, not this.
    if (toolsIn(text, new Set(['os'])).some((os) => os.value !== 'macOS')) return [];
    return [{ key: 'os', value: 'macOS', tier: 'B' }];
  }
  return [];
}
