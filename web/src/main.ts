import { mount } from 'svelte';
import '@fontsource/eb-garamond/latin-400.css';
import '@fontsource/eb-garamond/latin-400-italic.css';
import '@fontsource/eb-garamond/latin-600.css';
import '@fontsource/cinzel/latin-600.css';
import './app.css';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
