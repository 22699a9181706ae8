// Read-aloud ("Đọc cho em nghe"): a recorded clip when the organiser uploaded one, otherwise the
// device's own speech, and only with a Vietnamese voice: a device that would read Vietnamese with
// an English voice reads nothing (the button is hidden). Nothing leaves the site: the Web Speech
// API speaks on the device, and clips come from /api/media.
import { useCallback, useEffect, useRef, useState } from 'react';

/** The part of SpeechSynthesisVoice the choice reads (tests pass plain objects). */
export interface VoiceInfo {
  lang: string;
  name: string;
  localService?: boolean;
}

const isVietnamese = (lang: string) => /^vi([-_]|$)/i.test(lang.trim());

/**
 * The voice to read Vietnamese with, or undefined when the device has none: vi-VN first, then any
 * 'vi' voice; a voice on the device before one that needs the network.
 */
export function chooseVietnameseVoice<V extends VoiceInfo>(voices: readonly V[]): V | undefined {
  const candidates = voices.filter((voice) => isVietnamese(voice.lang));
  const rank = (voice: V) => (/^vi[-_]vn$/i.test(voice.lang) ? 0 : 1) * 2 + (voice.localService === false ? 1 : 0);
  return [...candidates].sort((a, b) => rank(a) - rank(b))[0];
}

export type ReadAloudSource = { kind: 'clip'; url: string } | { kind: 'voice' };

/** What reads a text: its clip wins over the device's voice; undefined: nothing can (no button). */
export function readAloudSource(clip: string | null | undefined, voiceAvailable: boolean): ReadAloudSource | undefined {
  if (clip) return { kind: 'clip', url: clip };
  return voiceAvailable ? { kind: 'voice' } : undefined;
}

/** A reading that has not started this long after speak() is a voice that cannot speak. */
const START_TIMEOUT_MS = 2_500;

function speechSynthesisOf(): SpeechSynthesis | undefined {
  return typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance !== 'undefined' ? window.speechSynthesis : undefined;
}

export interface Reading {
  /** Which text is being read (the caller's key), and the character range of the word now read. */
  key: string;
  word?: { start: number; end: number };
}

/** How long an empty voice list may still fill in (browsers load voices after the page) before the device is taken to have none. */
const VOICES_GRACE_MS = 2_000;

/**
 * The device's Vietnamese voice: `missing` once it is known to have none (no speech at all, a
 * voice list without Vietnamese, or still no voices after a grace period), `checking` before.
 */
export function useVietnameseVoice(): { voice: SpeechSynthesisVoice | undefined; missing: boolean } {
  const [voice, setVoice] = useState<SpeechSynthesisVoice | undefined>();
  const [missing, setMissing] = useState(() => !speechSynthesisOf());
  useEffect(() => {
    const synth = speechSynthesisOf();
    if (!synth) return;
    const load = () => {
      const voices = synth.getVoices();
      const found = chooseVietnameseVoice(voices);
      setVoice(found);
      if (found || voices.length > 0) setMissing(!found);
    };
    load();
    const grace = setTimeout(() => setMissing((now) => now || synth.getVoices().length === 0), VOICES_GRACE_MS);
    synth.addEventListener('voiceschanged', load);
    return () => {
      clearTimeout(grace);
      synth.removeEventListener('voiceschanged', load);
      synth.cancel();
    };
  }, []);
  return { voice, missing };
}

/**
 * The exam screen's reader: whether the device can speak Vietnamese, the reading in progress
 * (for the highlight), and read/stop. A voice that fails (an error, or no start: Android lists
 * languages whose voice pack is missing) is given up for the rest of the exam (`voiceFailed`).
 */
export function useReadAloud() {
  const { voice } = useVietnameseVoice();
  const [failed, setFailed] = useState(false);
  const [reading, setReading] = useState<Reading | undefined>();
  const audio = useRef<HTMLAudioElement | null>(null);
  const startTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [clips] = useState(createClipCache);
  useEffect(() => () => clips.clear(), [clips]);

  const stop = useCallback(() => {
    clearTimeout(startTimer.current);
    speechSynthesisOf()?.cancel();
    audio.current?.pause();
    audio.current = null;
    setReading(undefined);
  }, []);

  useEffect(() => stop, [stop]);

  const read = useCallback(
    (key: string, text: string, clip?: string | null) => {
      stop();
      if (clip) {
        const player = new Audio(clips.source(clip));
        audio.current = player;
        player.addEventListener('ended', () => audio.current === player && setReading(undefined));
        player.addEventListener('error', () => audio.current === player && setReading(undefined));
        setReading({ key });
        void player.play().catch(() => audio.current === player && setReading(undefined));
        return;
      }
      const synth = speechSynthesisOf();
      if (!synth || !voice) return;
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.voice = voice;
      utterance.lang = voice.lang || 'vi-VN';
      utterance.rate = 0.9;
      const giveUp = () => {
        clearTimeout(startTimer.current);
        synth.cancel();
        setFailed(true);
        setReading(undefined);
      };
      utterance.addEventListener('start', () => clearTimeout(startTimer.current));
      utterance.addEventListener('boundary', (event) => {
        if (event.name !== 'word') return;
        const rest = text.slice(event.charIndex);
        const length = event.charLength || (/^\S+/.exec(rest)?.[0].length ?? 0);
        setReading({ key, word: { start: event.charIndex, end: event.charIndex + length } });
      });
      utterance.addEventListener('end', () => setReading((now) => (now?.key === key ? undefined : now)));
      utterance.addEventListener('error', (event) => {
        // 'interrupted'/'canceled': our own stop() or the next reading, not a broken voice.
        if (event.error === 'interrupted' || event.error === 'canceled') return;
        giveUp();
      });
      setReading({ key });
      synth.speak(utterance);
      startTimer.current = setTimeout(giveUp, START_TIMEOUT_MS);
    },
    [voice, stop, clips],
  );
  const prefetch = useCallback((urls: readonly (string | null | undefined)[]) => void clips.prefetch(urls), [clips]);

  return { voiceAvailable: Boolean(voice) && !failed, voiceFailed: failed, reading, read, stop, prefetch };
}

export interface ClipCache {
  /** What to play for a clip now: the downloaded copy, else its own address (and the download starts). */
  source(url: string): string;
  /** Starts downloading clips not downloaded yet; a failed one is tried again at its next use. */
  prefetch(urls: readonly (string | null | undefined)[]): Promise<void>;
  /** Frees the downloaded copies (the exam screen is left). */
  clear(): void;
}

const downloadClip = async (url: string) => {
  const response = await fetch(url, { priority: 'low' } as RequestInit);
  if (!response.ok) throw new Error(`clip ${url}: HTTP ${response.status}`);
  return URL.createObjectURL(await response.blob());
};

/**
 * The clips of one exam, each downloaded once and then played from memory: an audio element
 * asks the server again at every play (range requests the HTTP cache does not keep), which was
 * 4-5 downloads of one clip while a child moved between questions.
 */
export function createClipCache(download: (url: string) => Promise<string> = downloadClip, release: (copy: string) => void = (copy) => URL.revokeObjectURL(copy)): ClipCache {
  const ready = new Map<string, string>();
  const pending = new Map<string, Promise<void>>();
  const fetchOne = (url: string): Promise<void> => {
    const running = pending.get(url);
    if (running || ready.has(url)) return running ?? Promise.resolve();
    const started = download(url).then(
      (copy) => void ready.set(url, copy),
      () => undefined,
    );
    const tracked = started.finally(() => pending.delete(url));
    pending.set(url, tracked);
    return tracked;
  };
  return {
    source(url) {
      const copy = ready.get(url);
      if (copy) return copy;
      void fetchOne(url);
      return url;
    },
    async prefetch(urls) {
      await Promise.all(urls.flatMap((url) => (url ? [fetchOne(url)] : [])));
    },
    // Not final (React's development mode unmounts and mounts again): a clip arriving later is kept.
    clear() {
      for (const copy of ready.values()) release(copy);
      ready.clear();
    },
  };
}
