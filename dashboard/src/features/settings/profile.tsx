import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { useCan } from '../../app/sellers';
import { ErrorNote, Field, Loading, PageTitle } from '../../components/ui';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** Configurações → Perfil do negócio: the name, logo and colour the hosted pages and e-mails show. */
export function BusinessProfileView() {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('business-profile');
  const canEdit = useCan('admin');
  const profile = useQuery({ queryKey: key, queryFn: () => must(api.GET('/api/seller/profile')) });
  const [name, setName] = useState('');
  const [logoUrl, setLogoUrl] = useState('');
  const [brandColor, setBrandColor] = useState('');
  useEffect(() => {
    if (!profile.data) return;
    setName(profile.data.name);
    setLogoUrl(profile.data.logoUrl ?? '');
    setBrandColor(profile.data.brandColor ?? '');
  }, [profile.data]);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/api/seller/profile', {
          body: { name, logoUrl: logoUrl.trim() || null, brandColor: brandColor.trim() || null },
        }),
      ),
    onSuccess: (saved) => client.setQueryData(key, saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const saved = save.data ?? profile.data;
  return (
    <>
      <PageTitle lead="O nome, o logo e a cor que o comprador vê nas páginas de pagamento, no portal e nos e-mails.">
        Perfil do negócio
      </PageTitle>
      {profile.isPending ? <Loading /> : null}
      <ErrorNote error={profile.error} />
      {profile.data ? (
        <section className="card" aria-labelledby="profile-form">
          <h2 id="profile-form">Marca</h2>
          <form onSubmit={submit} className="stack">
            <fieldset disabled={!canEdit} className="plain">
              <Field
                label="Nome do negócio"
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={120}
              />
              <Field
                label="Endereço do logo"
                type="url"
                inputMode="url"
                placeholder="https://"
                value={logoUrl}
                onChange={(e) => setLogoUrl(e.target.value)}
                hint="Uma imagem em https (quadrada, de preferência). Deixe vazio para não mostrar logo."
              />
              <Field
                label="Cor da marca"
                placeholder="#1a73e8"
                pattern="#[0-9a-fA-F]{6}"
                value={brandColor}
                onChange={(e) => setBrandColor(e.target.value)}
                hint="Em hexadecimal, como #1a73e8. Os botões usam texto branco ou escuro, o que contrastar mais."
              />
            </fieldset>
            {HEX.test(brandColor) ? (
              <p className="muted">
                Prévia:{' '}
                <svg width="96" height="28" role="img" aria-label={`Cor ${brandColor}`}>
                  <rect width="96" height="28" rx="6" fill={brandColor} />
                </svg>
              </p>
            ) : null}
            {saved?.contrastOnWhite !== null &&
            saved?.contrastOnWhite !== undefined &&
            saved.contrastOnWhite < 4.5 ? (
              <p className="muted" id="contrast-note">
                Texto branco sobre esta cor tem contraste {saved.contrastOnWhite.toLocaleString('pt-BR')}:1
                (abaixo de 4,5:1): as páginas escrevem em escuro sobre ela.
              </p>
            ) : null}
            {canEdit ? (
              <button type="submit" className="primary" disabled={save.isPending}>
                Salvar perfil
              </button>
            ) : (
              <p className="muted">Só proprietários e administradores alteram o perfil.</p>
            )}
            {save.isSuccess ? <output className="status">Perfil salvo.</output> : null}
            <ErrorNote error={save.error} />
          </form>
        </section>
      ) : null}
    </>
  );
}
