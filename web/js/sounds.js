// Move sounds, made with the Web Audio API (no sound files): a short knock for
// a move, a sharper one for a capture, two notes at the end. The mute switch
// is prefs.sound.
import { prefs } from './prefs.js';

let ctx = null;
function tone(freq, start, dur, gain = 0.18, type = 'triangle') {
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.value = freq;
  g.gain.setValueAtTime(gain, ctx.currentTime + start);
  g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + start + dur);
  o.connect(g).connect(ctx.destination);
  o.start(ctx.currentTime + start);
  o.stop(ctx.currentTime + start + dur + 0.02);
}

export const sounds = {
  played: [],   // the names played, for tests
  play(name) {
    if (!prefs.get('sound')) return;
    sounds.played.push(name);
    try {
      ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      if (name === 'capture') { tone(220, 0, 0.09, 0.25, 'square'); tone(160, 0.03, 0.1); }
      else if (name === 'end') { tone(523, 0, 0.18); tone(392, 0.16, 0.3); }
      else tone(330, 0, 0.08);
    } catch { /* no audio */ }
  },
};
window.acedrexSounds = sounds;
