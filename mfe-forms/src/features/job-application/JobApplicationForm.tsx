import { useEffect } from 'react';
import {
  TOAST_MESSAGES,
  VACANCY_TITLES,
  vacancyFromSearch,
  type JobApplication,
} from '@agency/shared';
import { useLocation } from '@agency/shared/router';
import { submitJobApplication } from '@agency/shared/api-client';
import { FormFrame } from '../../shared/form/FormFrame';
import { FormField } from '../../shared/form/FormField';
import { SelectField, type SelectOption } from '../../shared/form/SelectField';
import { useSubmission } from '../../shared/form/use-submission';

const EMPTY_APPLICATION: JobApplication = {
  name: '',
  email: '',
  phone: '',
  city: '',
  position: '',
  resume_text: '',
};

const POSITION_OPTIONS: readonly SelectOption<string>[] = VACANCY_TITLES.map((title) => ({ value: title, label: title }));

/** The job application form next to the vacancies: name, email, phone, city and position required, a résumé optional. */
export default function JobApplicationForm() {
  const { submitting, retrying, handleSubmit, formRef, field, setValue } = useSubmission({
    form: 'job-application',
    emptyValues: EMPTY_APPLICATION,
    send: submitJobApplication,
    messages: { success: TOAST_MESSAGES.applicationSuccess, error: TOAST_MESSAGES.applicationError },
  });
  // A vacancy's "Відгукнутися" (in the home remote) names the vacancy in the address: it is
  // chosen when the form mounts and whenever such a link is followed again (a new location key),
  // leaving the other fields as the visitor typed them.
  const { search, key } = useLocation();
  useEffect(() => {
    const vacancy = vacancyFromSearch(search);
    if (vacancy) setValue('position', vacancy.title);
  }, [search, key, setValue]);
  return (
    <FormFrame
      form="job-application"
      title="Відгукнутися на вакансію"
      hint="Розкажіть коротко про себе — ми відповімо протягом двох робочих днів."
      submitLabel="Надіслати заявку"
      submitting={submitting}
      retrying={retrying}
      onSubmit={handleSubmit}
      formRef={formRef}
    >
      <FormField
        id="application-name"
        label="Імʼя та прізвище"
        autoComplete="name"
        required
        {...field('name')}
      />
      <FormField
        id="application-email"
        type="email"
        label="Електронна пошта"
        autoComplete="email"
        required
        {...field('email')}
      />
      <FormField
        id="application-phone"
        type="tel"
        label="Телефон"
        autoComplete="tel"
        required
        {...field('phone')}
      />
      <FormField
        id="application-city"
        label="Місто"
        autoComplete="address-level2"
        required
        {...field('city')}
      />
      <SelectField
        id="application-position"
        label="Вакансія"
        required
        options={POSITION_OPTIONS}
        {...field('position')}
      />
      <FormField
        id="application-resume"
        label="Про себе та досвід"
        multiline
        {...field('resume_text')}
      />
    </FormFrame>
  );
}
