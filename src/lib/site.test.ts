import { describe, it, expect } from 'vitest';
import { siteFromHost, otherHost, hostForSite, siteIdForLanguage } from './site';

describe('the host decides the site', () => {
  it.each([
    ['br.localhost:4321', 3], ['BR.inkpass.example', 3], ['localhost:4321', 1], ['inkpass.example', 1],
    ['brazil.example', 1], ['', 1], [null, 1],
  ])('%s is site %s', (host, id) => expect(siteFromHost(host).id).toBe(id));
  it('gives each site its locale, language and zone', () => {
    expect(siteFromHost('br.x').locale).toBe('pt-BR');
    expect(siteFromHost('br.x').timeZone).toBe('America/Sao_Paulo');
    expect(siteFromHost('x').locale).toBe('en');
  });
  it('switches hosts keeping the port', () => {
    expect(otherHost('localhost:4321')).toBe('br.localhost:4321');
    expect(otherHost('br.localhost:4321')).toBe('localhost:4321');
    expect(hostForSite('localhost:4321', 1)).toBe('localhost:4321');
    expect(hostForSite('localhost:4321', 3)).toBe('br.localhost:4321');
    expect(hostForSite('br.inkpass.example', 1)).toBe('inkpass.example');
  });
  it('maps content languages to sites', () => {
    expect(siteIdForLanguage('en')).toBe(1);
    expect(siteIdForLanguage('pt-br')).toBe(3);
    expect(siteIdForLanguage('es')).toBe(0);
  });
});
