// Loaded on demand (a chunk of its own, after the times are on screen): the ALTCHA widget's
// strict-CSP build, its stylesheet, and its proof-of-work workers as files of this build.
import 'altcha/external';
import 'altcha/altcha.css';
import ShaWorker from 'altcha/workers/sha?worker';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

for (const a of ['SHA-256', 'SHA-384', 'SHA-512']) $altcha.algorithms.set(a, () => new ShaWorker());
for (const a of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512'])
  $altcha.algorithms.set(a, () => new Pbkdf2Worker());
