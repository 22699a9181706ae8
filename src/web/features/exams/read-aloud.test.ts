import { describe, expect, it } from 'vitest';
import { chooseVietnameseVoice, createClipCache, readAloudSource } from './read-aloud';

const voice = (lang: string, name = lang, localService = true) => ({ lang, name, localService });

describe('the read-aloud voice', () => {
  it('is none on a device with only English voices: the button is hidden', () => {
    const voices = [voice('en-US', 'Google US English'), voice('en-GB'), voice('fr-FR')];
    expect(chooseVietnameseVoice(voices)).toBeUndefined();
    expect(readAloudSource(undefined, Boolean(chooseVietnameseVoice(voices)))).toBeUndefined();
  });

  it('is the vi-VN voice when there is one, before another vi voice or one needing the network', () => {
    const chosen = chooseVietnameseVoice([voice('en-US'), voice('vi', 'Vietnamese'), voice('vi-VN', 'Online', false), voice('vi_VN', 'Linh')]);
    expect(chosen?.name).toBe('Linh');
    expect(chooseVietnameseVoice([voice('en-US'), voice('VI-vn', 'An')])?.name).toBe('An');
    expect(chooseVietnameseVoice([voice('vie'), voice('vi')])?.name).toBe('vi');
    expect(readAloudSource(null, true)).toEqual({ kind: 'voice' });
  });

  it('prefers the organiser’s recorded clip over the device voice, and plays it without a voice', () => {
    expect(readAloudSource('/api/media/abc.mp3', true)).toEqual({ kind: 'clip', url: '/api/media/abc.mp3' });
    expect(readAloudSource('/api/media/abc.mp3', false)).toEqual({ kind: 'clip', url: '/api/media/abc.mp3' });
  });
});

describe('the clips of an exam', () => {
  /** A download that counts its calls and answers when told. */
  function downloads() {
    const calls: string[] = [];
    const waiting = new Map<string, { resolve: (copy: string) => void; reject: (error: Error) => void }>();
    const download = (url: string) =>
      new Promise<string>((resolve, reject) => {
        calls.push(url);
        waiting.set(url, { resolve, reject });
      });
    return { calls, download, finish: (url: string) => waiting.get(url)!.resolve(`blob:${url}`), fail: (url: string) => waiting.get(url)!.reject(new Error('offline')) };
  }

  it('downloads each clip once, however often it is fetched ahead and played, then plays the copy', async () => {
    const net = downloads();
    const released: string[] = [];
    const clips = createClipCache(net.download, (copy) => released.push(copy));
    const ahead = clips.prefetch(['/api/media/a.mp3', null, '/api/media/b.mp3', undefined]);
    // Moving back and forth between questions while the download runs: no second download.
    void clips.prefetch(['/api/media/a.mp3']);
    expect(clips.source('/api/media/a.mp3')).toBe('/api/media/a.mp3');
    net.finish('/api/media/a.mp3');
    net.finish('/api/media/b.mp3');
    await ahead;
    for (let move = 0; move < 5; move += 1) {
      await clips.prefetch(['/api/media/a.mp3', '/api/media/b.mp3']);
      expect(clips.source('/api/media/a.mp3')).toBe('blob:/api/media/a.mp3');
    }
    expect(net.calls).toEqual(['/api/media/a.mp3', '/api/media/b.mp3']);
    clips.clear();
    expect(released).toEqual(['blob:/api/media/a.mp3', 'blob:/api/media/b.mp3']);
  });

  it('tries a failed download again at its next use, playing the address meanwhile', async () => {
    const net = downloads();
    const clips = createClipCache(net.download, () => {});
    const first = clips.prefetch(['/api/media/c.mp3']);
    net.fail('/api/media/c.mp3');
    await first;
    expect(clips.source('/api/media/c.mp3')).toBe('/api/media/c.mp3');
    expect(net.calls).toEqual(['/api/media/c.mp3', '/api/media/c.mp3']);
  });
});
