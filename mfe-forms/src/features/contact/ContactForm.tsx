import { SERVICE_TYPES, TOAST_MESSAGES, type ContactMessage } from '@agency/shared';
import { submitContactMessage } from '@agency/shared/api-client';
import { FormFrame } from '../../shared/form/FormFrame';
import { FormField } from '../../shared/form/FormField';
import { SelectField } from '../../shared/form/SelectField';
import { useSubmission } from '../../shared/form/use-submission';

const EMPTY_MESSAGE: ContactMessage = {
  name: '',
  email: '',
  phone: '',
  company: '',
  service_type: '',
  message: '',
};

/** The contact form of the contact section (spec sections 3, 5, 8). */
export default function ContactForm() {
  const { values, fieldErrors, submitting, setValue, handleSubmit } = useSubmission({
    emptyValues: EMPTY_MESSAGE,
    send: submitContactMessage,
    messages: { success: TOAST_MESSAGES.contactSuccess, error: TOAST_MESSAGES.contactError },
  });
  return (
    <FormFrame
      title="Напишіть нам"
      hint="Опишіть задачу — менеджер звʼяжеться з вами протягом робочого дня."
      submitLabel="Надіслати повідомлення"
      submitting={submitting}
      onSubmit={handleSubmit}
    >
      <FormField
        id="contact-name"
        name="name"
        label="Імʼя"
        autoComplete="name"
        required
        value={values.name}
        onChange={(value) => setValue('name', value)}
        error={fieldErrors.name}
      />
      <FormField
        id="contact-email"
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
        id="contact-phone"
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
        id="contact-company"
        name="company"
        label="Компанія"
        autoComplete="organization"
        value={values.company}
        onChange={(value) => setValue('company', value)}
        error={fieldErrors.company}
      />
      <SelectField
        id="contact-service-type"
        name="service_type"
        label="Послуга, що цікавить"
        options={SERVICE_TYPES}
        value={values.service_type}
        onChange={(value) => setValue('service_type', value)}
        error={fieldErrors.service_type}
      />
      <FormField
        id="contact-message"
        name="message"
        label="Повідомлення"
        required
        multiline
        value={values.message}
        onChange={(value) => setValue('message', value)}
        error={fieldErrors.message}
      />
    </FormFrame>
  );
}
