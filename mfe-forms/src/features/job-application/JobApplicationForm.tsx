import { TOAST_MESSAGES, VACANCY_TITLES, type JobApplication } from '@agency/shared';
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

/** The job application form next to the vacancies (spec sections 3, 5, 8). */
export default function JobApplicationForm() {
  const { values, fieldErrors, submitting, setValue, handleSubmit } = useSubmission({
    emptyValues: EMPTY_APPLICATION,
    send: submitJobApplication,
    messages: { success: TOAST_MESSAGES.applicationSuccess, error: TOAST_MESSAGES.applicationError },
  });
  return (
    <FormFrame
      title="Відгукнутися на вакансію"
      hint="Розкажіть коротко про себе — ми відповімо протягом двох робочих днів."
      submitLabel="Надіслати заявку"
      submitting={submitting}
      onSubmit={handleSubmit}
    >
      <FormField
        id="application-name"
        name="name"
        label="Імʼя та прізвище"
        autoComplete="name"
        required
        value={values.name}
        onChange={(value) => setValue('name', value)}
        error={fieldErrors.name}
      />
      <FormField
        id="application-email"
        name="email"
        type="email"
        label="Електронна пошта"
        autoComplete="email"
        required
        value={values.email}
        onChange={(value) => setValue('email', value)}
        error={fieldErrors.email}
      />
      <FormField
        id="application-phone"
        name="phone"
        type="tel"
        label="Телефон"
        autoComplete="tel"
        required
        value={values.phone}
        onChange={(value) => setValue('phone', value)}
        error={fieldErrors.phone}
      />
      <FormField
        id="application-city"
        name="city"
        label="Місто"
        autoComplete="address-level2"
        required
        value={values.city}
        onChange={(value) => setValue('city', value)}
        error={fieldErrors.city}
      />
      <SelectField
        id="application-position"
        name="position"
        label="Вакансія"
        required
        options={POSITION_OPTIONS}
        value={values.position}
        onChange={(value) => setValue('position', value)}
        error={fieldErrors.position}
      />
      <FormField
        id="application-resume"
        name="resume_text"
        label="Про себе та досвід"
        multiline
        value={values.resume_text}
        onChange={(value) => setValue('resume_text', value)}
        error={fieldErrors.resume_text}
      />
    </FormFrame>
  );
}
