import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import SentimentSatisfiedAlt from '@mui/icons-material/SentimentSatisfiedAlt';
import SentimentNeutral from '@mui/icons-material/SentimentNeutral';
import SentimentVeryDissatisfied from '@mui/icons-material/SentimentVeryDissatisfied';
import { useLocaleState, useTranslate } from 'react-admin';
import { useParams, useSearchParams } from 'react-router-dom';
import { PublicPage } from '../../shell/PublicPage.tsx';
import { postAnonymous } from './PasswordResetRequestPage.tsx';
import { isLocale, LOCALE_STORAGE_KEY } from '../../i18n/index.ts';

/** What GET /api/surveys/{token} answers (server/resources/satisfaction-surveys/routes.ts). */
interface Survey {
  reference: string;
  description: string;
  scale: 3 | 5;
  language: string;
  rating: number | null;
  rated: boolean;
}

/** The server's answer to an answered survey (common/server-texts.ts survey_answered). */
const ANSWERED = 'This survey has already been answered.';

const THREE = [
  { rating: 3, key: 'good', Icon: SentimentSatisfiedAlt, color: 'success.main' },
  { rating: 2, key: 'neutral', Icon: SentimentNeutral, color: 'warning.dark' },
  { rating: 1, key: 'bad', Icon: SentimentVeryDissatisfied, color: 'error.main' },
] as const;

/** "No more surveys": the link's client opts out (POST …/opt-out), said in place of the button. */
function OptOut({ token }: { token: string }) {
  const translate = useTranslate();
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'failed'>('idle');
  async function optOut() {
    setState('busy');
    try {
      const res = await postAnonymous(`/api/surveys/${encodeURIComponent(token)}/opt-out`, {});
      setState(res.status === 200 ? 'done' : 'failed');
    } catch {
      setState('failed');
    }
  }
  if (state === 'done')
    return (
      <Alert severity="info" role="status">
        {translate('survey.opted_out')}
      </Alert>
    );
  return (
    <Box>
      {state === 'failed' && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {translate('survey.opt_out_failed')}
        </Alert>
      )}
      <Button variant="text" size="small" onClick={optOut} disabled={state === 'busy'}>
        {translate('survey.opt_out')}
      </Button>
    </Box>
  );
}

type Stage =
  | { kind: 'loading' }
  | { kind: 'invalid' }
  | { kind: 'open'; survey: Survey }
  | { kind: 'done'; survey: Survey; answeredBefore: boolean };

/**
 * /survey/:token, the link of the satisfaction survey mail (issue 39, item 3), without a login. The
 * link's `?rating=` is only preselected: a mail scanner that fetches the link rates nothing, the client's
 * click on the button does (a POST). Shown in the mail's language unless this browser chose one.
 */
export default function SurveyPage() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [rating, setRating] = useState<number | undefined>();
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    fetch(`/api/surveys/${encodeURIComponent(token)}`, { headers: { accept: 'application/json' } })
      .then(async (res) => {
        if (!current) return;
        if (!res.ok) return setStage({ kind: 'invalid' });
        const survey = (await res.json()) as Survey;
        if (
          !localStorage.getItem(LOCALE_STORAGE_KEY) &&
          isLocale(survey.language) &&
          survey.language !== locale
        )
          setLocale(survey.language);
        const chosen = Number(search.get('rating'));
        if (Number.isInteger(chosen) && chosen >= 1 && chosen <= survey.scale) setRating(chosen);
        setStage(survey.rated ? { kind: 'done', survey, answeredBefore: true } : { kind: 'open', survey });
      })
      .catch(() => current && setStage({ kind: 'invalid' }));
    return () => {
      current = false;
    };
    // Once per link: the language and the preselection are the link's, read when it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const ratingName = (survey: Survey, value: number) => {
    if (survey.scale === 5) return translate('survey.out_of_five', { rating: value });
    const word = THREE.find((r) => r.rating === value)?.key ?? 'neutral';
    return translate(`survey.${word}`);
  };

  async function submit(event: FormEvent, survey: Survey) {
    event.preventDefault();
    if (rating === undefined) return setProblem(translate('survey.choose'));
    setProblem(undefined);
    setBusy(true);
    try {
      const res = await postAnonymous(`/api/surveys/${encodeURIComponent(token)}`, {
        rating,
        comment: comment.trim() ? comment : null,
      });
      if (res.status === 200)
        return setStage({ kind: 'done', survey: res.body as Survey, answeredBefore: false });
      if (res.body?.message === ANSWERED)
        return setStage({ kind: 'done', survey: { ...survey, rated: true }, answeredBefore: true });
      if (res.status === 404) return setStage({ kind: 'invalid' });
      setProblem(translate('app.errors.generic'));
    } catch {
      setProblem(translate('app.errors.network'));
    } finally {
      setBusy(false);
    }
  }

  const title = translate('survey.title');
  if (stage.kind === 'loading')
    return (
      <PublicPage title={title}>
        <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          {translate('survey.loading')}
        </Box>
      </PublicPage>
    );
  if (stage.kind === 'invalid')
    return (
      <PublicPage title={title}>
        <Alert severity="error" role="alert">
          {translate('survey.invalid')}
        </Alert>
      </PublicPage>
    );
  const { survey } = stage;
  const about = (
    <Typography variant="body1" sx={{ overflowWrap: 'anywhere' }}>
      {translate('survey.ticket', { reference: survey.reference, description: survey.description })}
    </Typography>
  );
  if (stage.kind === 'done')
    return (
      <PublicPage title={title}>
        {about}
        <Alert severity="success" role="status">
          {translate(stage.answeredBefore ? 'survey.answered' : 'survey.thanks')}
        </Alert>
        {survey.rating !== null && (
          <Typography>
            {translate('survey.your_rating', { rating: ratingName(survey, survey.rating) })}
          </Typography>
        )}
        <OptOut token={token} />
      </PublicPage>
    );

  return (
    <PublicPage title={title} maxWidth={520}>
      {about}
      <Box
        component="form"
        onSubmit={(e: FormEvent) => submit(e, survey)}
        noValidate
        sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      >
        <FormControl error={!!problem} required>
          <FormLabel id="survey-rating">{translate('survey.question')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="survey-rating"
            name="rating"
            value={rating === undefined ? '' : String(rating)}
            onChange={(e) => setRating(Number(e.target.value))}
            sx={{ gap: 1, mt: 1 }}
          >
            {survey.scale === 3
              ? THREE.map(({ rating: value, key, Icon, color }) => (
                  <FormControlLabel
                    key={value}
                    value={String(value)}
                    control={<Radio />}
                    label={
                      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                        <Icon sx={{ color }} aria-hidden />
                        {translate(`survey.${key}`)}
                      </Box>
                    }
                  />
                ))
              : [5, 4, 3, 2, 1].map((value) => (
                  <FormControlLabel
                    key={value}
                    value={String(value)}
                    control={<Radio />}
                    label={String(value)}
                    aria-label={translate('survey.out_of_five', { rating: value })}
                  />
                ))}
          </RadioGroup>
          {problem && <FormHelperText>{problem}</FormHelperText>}
        </FormControl>
        <TextField
          label={translate('survey.comment')}
          name="comment"
          multiline
          minRows={3}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {translate('survey.send')}
        </Button>
      </Box>
      <OptOut token={token} />
    </PublicPage>
  );
}
