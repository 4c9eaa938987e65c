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

/** The contact form of the contact section: name, email, phone and message required, company and service optional. */
export default function ContactForm() {
  const { submitting, retrying, handleSubmit, formRef, field } = useSubmission({
    form: 'contact',
    emptyValues: EMPTY_MESSAGE,
    send: submitContactMessage,
    messages: { success: TOAST_MESSAGES.contactSuccess, error: TOAST_MESSAGES.contactError },
  });
  return (
    <FormFrame
      form="contact"
      title="Напишіть нам"
      hint="Опишіть завдання — менеджер звʼяжеться з вами протягом робочого дня."
      submitLabel="Надіслати повідомлення"
      submitting={submitting}
      retrying={retrying}
      onSubmit={handleSubmit}
      formRef={formRef}
    >
      <FormField
        id="contact-name"
        label="Імʼя"
        autoComplete="name"
        required
        {...field('name')}
      />
      <FormField
        id="contact-email"
        type="email"
        label="Електронна пошта"
        autoComplete="email"
        required
        {...field('email')}
      />
      <FormField
        id="contact-phone"
        type="tel"
        label="Телефон"
        autoComplete="tel"
        required
        {...field('phone')}
      />
      <FormField
        id="contact-company"
        label="Компанія"
        autoComplete="organization"
        {...field('company')}
      />
      <SelectField
        id="contact-service-type"
        label="Послуга, яка вас цікавить"
        options={SERVICE_TYPES}
        {...field('service_type')}
      />
      <FormField
        id="contact-message"
        label="Повідомлення"
        required
        multiline
        {...field('message')}
      />
    </FormFrame>
  );
}
