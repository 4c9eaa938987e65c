// Brings jest-dom's matchers (toBeInTheDocument, …) into every app's test types.
import '@testing-library/jest-dom';
