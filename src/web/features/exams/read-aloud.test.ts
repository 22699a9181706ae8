import { describe, expect, it } from 'vitest';
import { chooseVietnameseVoice, readAloudSource } from './read-aloud';

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
