/** The main pointer is a finger (a phone, a tablet): hints say tap, and keyboard shortcuts are not offered. */
export const isTouchScreen = () => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
